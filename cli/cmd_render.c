/* tableref render: a synthetic overhead photo of a table and its exact truth. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "commands.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "rules_json.h"

static void render_usage(FILE *out)
{
    fprintf(out,
            "usage: tableref render SCENE.json --out DIR [--seed N]\n"
            "       tableref render --generate small|bench --out DIR [--seed N]\n"
            "\n"
            "Renders the scene (a snapshot, a roster and a camera; docs/formats.md) as\n"
            "the overhead camera would see it and writes into DIR:\n"
            "  image.jpg (image.png when jpeg_quality is 0)  the picture\n"
            "  calib.json     the exact calibration of that picture\n"
            "  roster.json    the roster\n"
            "  snapshot.json  the true model positions (a snapshot `tableref check` reads)\n"
            "  truth.json     every model's centre and facing, every tag's corners in\n"
            "                 pixels and whether it is fully visible\n"
            "--generate makes a scene instead of reading one: small (1280x960, 4 units)\n"
            "or bench (4056x3040, 250 tags of 16 mm). The same seed gives the same picture.\n"
            "\n"
            "Exit status: 0 done, 2 bad input or usage.\n");
}

int cmd_render(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        render_usage(stdout);
        return 0;
    }
    const char *scene_path = NULL, *out = NULL, *gen = NULL;
    long seed = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--generate") == 0 && i + 1 < argc)
            gen = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtol(argv[++i], NULL, 10);
        else if (argv[i][0] == '-' || scene_path) {
            fprintf(stderr, "tableref render: unexpected argument '%s' (try --help)\n", argv[i]);
            return EXIT_BAD_INPUT;
        } else
            scene_path = argv[i];
    }
    if (!scene_path && !gen)
        return cli_missing("render", "the SCENE.json (or --generate NAME)"), EXIT_BAD_INPUT;
    if (scene_path && gen) {
        fprintf(stderr, "tableref render: give a SCENE.json or --generate, not both\n");
        return EXIT_BAD_INPUT;
    }
    if (!out)
        return cli_missing("render", "--out DIR (where to write the picture and its truth)"), EXIT_BAD_INPUT;
    rules_error err;
    ds_scene *s = NULL;
    if (gen) {
        ds_gen_params g;
        if (strcmp(gen, "small") == 0)
            ds_gen_params_small(&g);
        else if (strcmp(gen, "bench") == 0)
            ds_gen_params_bench(&g);
        else {
            fprintf(stderr, "tableref render: --generate takes small or bench\n");
            return EXIT_BAD_INPUT;
        }
        if (seed >= 0)
            g.seed = (uint32_t)seed;
        s = ds_scene_generate(&g, &err);
    } else {
        s = ds_scene_load(scene_path, &err);
    }
    if (!s) {
        fprintf(stderr, "tableref render: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (seed >= 0)
        s->render.seed = (uint32_t)seed;
    if (mkdir(out, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "tableref render: %s: cannot create: %s\n", out, strerror(errno));
        ds_scene_free(s);
        return EXIT_BAD_INPUT;
    }
    /* Compress once, when writing, rather than in the renderer and again here. */
    const int quality = s->render.effects.jpeg_quality;
    s->render.effects.jpeg_quality = 0;
    cvs_image *img = NULL;
    ds_truth truth = {0};
    int rc = EXIT_BAD_INPUT;
    char path[4096];
    const char *image_name = quality > 0 ? "image.jpg" : "image.png";
    if (ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/%s", out, image_name);
    if (cvs_image_save(img, path, quality, &err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/calib.json", out);
    if (calib_file_save(&s->calib, path, &err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/roster.json", out);
    if (vis_roster_save(s->roster, path, &err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/snapshot.json", out);
    if (rules_json_save_snapshot(s->snapshot, path, &err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/truth.json", out);
    cJSON *tj = ds_truth_to_json(&truth, s->snapshot, s->roster, &s->calib, image_name);
    int wrc = tj ? rules_json_write_file(tj, path, &err) : rules_error_set(&err, "out of memory");
    cJSON_Delete(tj);
    if (wrc < 0)
        goto done;
    size_t vis = 0;
    for (size_t i = 0; i < truth.n_tags; i++)
        vis += truth.tags[i].fully_visible != 0;
    printf("rendered %dx%d: %zu tags, %zu fully visible -> %s/\n", img->width, img->height, truth.n_tags, vis, out);
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "tableref render: %s\n", err.msg);
    cvs_image_free(img);
    ds_truth_clear(&truth);
    ds_scene_free(s);
    return rc;
}
