/* tableref tags: every AprilTag in one image, nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "rules_json.h"
#include "media_image_read.h"
#include "vis_tag.h"

static const cli_doc doc = {
    "tags",
    "usage: tableref tags IMAGE [--family F] [--json] [--decimate D] [--sigma S] [--refine]\n"
    "       tableref tags sheet ROSTER.json --out TAGS.pdf   (the tags to print; see tags sheet --help)\n"
    "       tableref tags layout ROSTER.json --out R2.json  (rim labels where the bases take them)\n"
    "\n"
    "Lists every AprilTag found in IMAGE (JPEG or PNG): ID, the four corners in\n"
    "pixels and the decision margin. Corners use apriltag's convention, (0,0) =\n"
    "top-left corner of the first pixel, in apriltag's counter-clockwise order;\n"
    "lines are sorted by ID then position.\n"
    "\n",
    "\nExit status: 0 done (even with no tags), 2 bad input or usage.\n",
    "IMAGE",
};

static const cli_step steps[] = {
#if TABLEREF_HAVE_SHEET
    {"sheet", cmd_tags_sheet, "a roster's tags, printed at their true size"},
#endif
    {"layout", cmd_tags_layout, "a roster's marks laid out from its bases"},
};

/* The tags as a JSON array on stdout: id, corners in apriltag's convention, margin, hamming. */
static int print_json(const vis_tag_list *tags, base_error *err)
{
    cJSON *arr = cJSON_CreateArray();
    const double off = vis_tag_corner_offset();
    for (size_t i = 0; i < tags->n; i++) {
        const vis_tag_detection *t = &tags->items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", t->id);
        cJSON *cs = cJSON_AddArrayToObject(o, "corners_px");
        for (int k = 0; k < 4; k++) {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round((t->corners[k][0] + off) * 1e4) / 1e4));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round((t->corners[k][1] + off) * 1e4) / 1e4));
            cJSON_AddItemToArray(cs, pt);
        }
        base_json_add_number(o, "margin", t->margin, 3);
        cJSON_AddNumberToObject(o, "hamming", t->hamming);
        cJSON_AddItemToArray(arr, o);
    }
    int rc = base_json_write_file(arr, "-", err);
    cJSON_Delete(arr);
    return rc;
}

/* One line per tag: id, the four corners, the margin. */
static void print_lines(const vis_tag_list *tags)
{
    const double off = vis_tag_corner_offset();
    for (size_t i = 0; i < tags->n; i++) {
        const vis_tag_detection *t = &tags->items[i];
        printf("%d", t->id);
        for (int k = 0; k < 4; k++)
            printf(", (%.4f %.4f)", t->corners[k][0] + off, t->corners[k][1] + off);
        printf("  margin %.1f\n", t->margin);
    }
}

int cmd_tags(int argc, char **argv)
{
#if TABLEREF_HAVE_SHEET
    if (argc >= 2 && strcmp(argv[1], "sheet") == 0)
        return cmd_tags_sheet(argc - 1, argv + 1);
#endif
    if (argc >= 2 && strcmp(argv[1], "layout") == 0)
        return cmd_tags_layout(argc - 1, argv + 1);
    const char *image = NULL, *family = "tag36h11";
    int json = 0, refine = 0;
    double decimate = 1.0, sigma = 0.0;
    const cli_opt opts[] = {
        CLI_CHOICE("--family", &family, "F", "tag36h11 tagStandard41h12", "tag36h11 (default) or tagStandard41h12"),
        CLI_FLAG("--json", &json, 1, "a JSON array instead of text lines"),
        CLI_NUMBER("--decimate", &decimate, "D", 1, 8,
                   "quad search downsampling (default 1: full resolution,\n"
                   "right for photos with small tags; 2-3 for 12 MP frames)"),
        CLI_NUMBER("--sigma", &sigma, "S", 0, 10, "Gaussian blur in px before the search (default 0)"),
        CLI_FLAG("--refine", &refine, 1,
                 "refine edges on the full image (default off, as in the\n"
                 "apriltag project's reference detections)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos == CLI_DONE && cli_dumping(argc, argv))
        return cli_dump_steps(doc.command, steps, CLI_N(steps));
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("tags", "the IMAGE (a JPEG or PNG photo)"), EXIT_BAD_INPUT;
    vis_tag_detector *det = vis_tag_detector_new(family);
    if (!det) {
        fprintf(stderr, "tableref tags: unknown tag family '%s' (tag36h11, tagStandard41h12)\n", family);
        return EXIT_BAD_INPUT;
    }
    det->cfg.decimate = decimate;
    det->cfg.sigma = sigma;
    det->cfg.refine_edges = refine;
    /* A listing tool shows what the library decodes; the margin is printed so
     * the reader can judge, as apriltag's own demo does. */
    det->cfg.min_margin = 0;
    det->cfg.max_hamming = 2;

    base_error err;
    base_image *img = media_image_load(image, MEDIA_IMAGE_GRAY, &err);
    if (!img) {
        fprintf(stderr, "tableref tags: %s\n", err.msg);
        vis_tag_detector_free(det);
        return EXIT_BAD_INPUT;
    }
    vis_tag_list tags = {0};
    int rc = vis_tag_detect(det, img->data, img->width, img->height, img->stride, &tags, &err);
    if (rc < 0) {
        fprintf(stderr, "tableref tags: %s: %s\n", image, err.msg);
    } else if (json) {
        rc = print_json(&tags, &err);
    } else {
        print_lines(&tags);
    }
    vis_tag_list_clear(&tags);
    base_image_free(img);
    vis_tag_detector_free(det);
    return rc < 0 ? EXIT_BAD_INPUT : 0;
}
