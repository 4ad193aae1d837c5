/* tableref render: a synthetic overhead photo of a table and its exact truth. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "commands.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "rules_json.h"
#include "media.h"

static const cli_doc doc = {
    "render",
    "usage: tableref render SCENE.json --out DIR [--seed N]\n"
    "       tableref render --generate small|bench|hard[:K]|minis[:K] --out DIR [--seed N]\n"
    "                       [--crop WxH+X+Y] [--pair] [--hands N] [--marks mast|rim|sheet]\n"
    "\n"
    "Renders the scene (a snapshot, a roster and a camera; docs/formats.md) as\n"
    "the overhead camera would see it and writes into DIR:\n"
    "  image.jpg (image.png when jpeg_quality is 0)  the picture\n"
    "  calib.json     the exact calibration of that picture\n"
    "  roster.json    the roster\n"
    "  snapshot.json  the true model positions (a snapshot `tableref check` reads)\n"
    "  truth.json     every model's centre and facing, every tag's corners in\n"
    "                 pixels, how much of it is hidden and by what (figure, hand)\n"
    "\n",
    "\n"
    "--generate makes a scene instead of reading one: small (1280x960, 4 units),\n"
    "bench (4056x3040, 250 tags of 16 mm) or hard:K, table K of the hard set\n"
    "(datasets/hard/README.md: ~250 models of mixed units and tag sizes, leaning\n"
    "figures, hands, tilted camera, strong lens distortion, Bayer sensor, colour\n"
    "JPEG), or minis:K, table K of the miniatures set (real bases, figures standing\n"
    "as real miniatures do, skirmishers and characters; --marks mast, the default,\n"
    "puts rim labels on the bases and masts above the figures as `tags layout` lays\n"
    "them out, --marks rim the rim labels alone, --marks sheet the square tags\n"
    "`tags sheet` printed before rim labels). --crop renders only that\n"
    "part of the frame (same camera, fewer pixels).\n"
    "--pair (hard and minis tables) also renders DIR/after/ with one unit advanced 4.5\"\n"
    "(Advance 5\": legal) and another marched 11\" (March 10\": illegal), and\n"
    "writes DIR/pair.json. The same seed gives the same picture.\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage.\n",
    "SCENE",
};

static int make_dir(const char *path, base_error *err)
{
    if (mkdir(path, 0777) < 0 && errno != EEXIST)
        return base_error_set(err, "%s: cannot create: %s", path, strerror(errno));
    return 0;
}

/* The hard set's formation truth: each model's slot, each unit's kind and rear rank. */
static void add_formation_truth(cJSON *tj, const ds_hard_table *t)
{
    const roster_file *ro = t->scene->roster;
    cJSON *models = cJSON_GetObjectItemCaseSensitive(tj, "models"), *m;
    cJSON_ArrayForEach(m, models)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
        for (size_t k = 0; cJSON_IsString(id) && k < ro->n_models; k++)
            if (strcmp(ro->models[k].id, id->valuestring) == 0) {
                cJSON *slot = cJSON_AddArrayToObject(m, "slot_file_rank");
                cJSON_AddItemToArray(slot, cJSON_CreateNumber(t->slots[k].file));
                cJSON_AddItemToArray(slot, cJSON_CreateNumber(t->slots[k].rank));
            }
    }
    cJSON *units = cJSON_AddArrayToObject(tj, "units");
    for (size_t u = 0; u < ro->n_units; u++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", ro->units[u].id);
        cJSON_AddStringToObject(o, "kind", t->kind[u]);
        cJSON_AddStringToObject(o, "rear_rank", ds_rank_align_name(t->align[u]));
        cJSON_AddItemToArray(units, o);
    }
}

/* Renders one frame of the scene into dir: picture, calibration, roster, snapshot, truth. */
static int render_into(const ds_scene *s, const rules_snapshot *snap, uint32_t frame_seed, const ds_hard_table *hard,
                       const char *dir, base_error *err)
{
    /* Compress once, when writing, rather than in the renderer and again here. */
    ds_render_params p = s->render;
    const int quality = p.effects.jpeg_quality;
    p.effects.jpeg_quality = 0;
    if (frame_seed)
        p.frame_seed = frame_seed;
    base_image *gray = NULL, *colour = NULL;
    ds_truth truth = {0};
    int rc = -1;
    char path[4096];
    const char *image_name = quality > 0 ? "image.jpg" : "image.png";
    if (make_dir(dir, err) < 0 || ds_render_colour(snap, s->roster, &s->calib, &p, &gray, &colour, &truth, err) < 0)
        goto done;
    if (strlen(dir) + 16 >= sizeof path) { /* DIR/snapshot.json and the rest: never cut */
        base_error_setc(err, BASE_E_TOO_LARGE, "%s: the folder's path is over %zu bytes", dir, sizeof path - 17);
        goto done;
    }
    snprintf(path, sizeof path, "%s/%s", dir, image_name);
    if (media_image_save(colour ? colour : gray, path, quality, err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/calib.json", dir);
    if (calib_file_save(&s->calib, path, err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/roster.json", dir);
    if (roster_save(s->roster, path, err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/snapshot.json", dir);
    if (rules_json_save_snapshot(snap, path, err) < 0)
        goto done;
    snprintf(path, sizeof path, "%s/truth.json", dir);
    cJSON *tj = ds_truth_to_json(&truth, snap, s->roster, &s->calib, image_name);
    if (tj && hard)
        add_formation_truth(tj, hard);
    int wrc = tj ? base_json_write_file(tj, path, err) : base_error_set(err, "out of memory");
    cJSON_Delete(tj);
    if (wrc < 0)
        goto done;
    size_t vis = 0, hand = 0;
    for (size_t i = 0; i < truth.n_tags; i++)
        vis += truth.tags[i].fully_visible != 0;
    for (size_t i = 0; i < truth.n_models; i++)
        hand += truth.models[i].hand_hidden != 0;
    printf("rendered %dx%d: %zu tags, %zu fully visible, %zu models under a hand -> %s/\n", gray->width,
           gray->height, truth.n_tags, vis, hand, dir);
    rc = 0;
done:
    base_image_free(gray);
    base_image_free(colour);
    ds_truth_clear(&truth);
    return rc;
}

static int write_pair(const char *out, const ds_hard_pair *pr, base_error *err)
{
    cJSON *root = cJSON_CreateObject(), *moves = root ? cJSON_AddArrayToObject(root, "moves") : NULL;
    if (!moves) {
        cJSON_Delete(root);
        return base_error_set(err, "out of memory");
    }
    cJSON_AddStringToObject(root, "format", "tableref.pair");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "before", ".");
    cJSON_AddStringToObject(root, "after", "after");
    cJSON_AddStringToObject(root, "unmoved", "every other unit");
    for (int k = 0; k < 2; k++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "unit", pr->moves[k].unit);
        base_json_add_number(m, "forward_in", base_mm_to_in(pr->moves[k].forward_mm), 3);
        cJSON_AddStringToObject(m, "rate", pr->moves[k].rate);
        base_json_add_number(m, "rate_in", base_mm_to_in(pr->moves[k].rate_mm), 3);
        cJSON_AddStringToObject(m, "expect", pr->moves[k].legal ? "legal" : "illegal");
        cJSON_AddItemToArray(moves, m);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/pair.json", out);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}

/* The scene rendered: generated (small, bench, hard[:K], hills[:K] or minis[:K] marked `marks`, with `seed` when
 * >= 0) or read from scene_path. A hard, hills or minis table also comes back in *hard, which owns the scene then. */
static ds_scene *make_scene(const char *gen, const char *scene_path, double seed, double hands, const char *marks,
                            ds_hard_table **hard, base_error *err)
{
    if (!gen)
        return ds_scene_load(scene_path, err);
    const int minis = strncmp(gen, "minis", 5) == 0 && (gen[5] == 0 || gen[5] == ':');
    const int hills = strncmp(gen, "hills", 5) == 0 && (gen[5] == 0 || gen[5] == ':');
    if (minis || hills || (strncmp(gen, "hard", 4) == 0 && (gen[4] == 0 || gen[4] == ':'))) {
        ds_hard_params hp;
        const char *tail = gen + (minis || hills ? 5 : 4);
        const int k = *tail == ':' ? atoi(tail + 1) : 1, most = minis ? ds_hard_minis_count() : ds_hard_preset_count();
        if (k < 1 || k > most) {
            base_error_set(err, "%s tables are 1..%d", minis ? "minis" : hills ? "hills" : "hard", most);
            return NULL;
        }
        if (minis)
            ds_hard_minis_preset(k, !marks                         ? DS_HARD_MARKS_MAST
                                    : strcmp(marks, "sheet") == 0 ? DS_HARD_MARKS_SHEET
                                    : strcmp(marks, "rim") == 0   ? DS_HARD_MARKS_RIM
                                                                  : DS_HARD_MARKS_MAST, &hp);
        else
            (hills ? ds_hard_preset_hills : ds_hard_preset)(k, &hp);
        if (seed >= 0)
            hp.seed = (uint32_t)seed;
        if (hands >= 0)
            hp.hands = (int)hands;
        *hard = ds_hard_generate(&hp, err);
        return *hard ? (*hard)->scene : NULL;
    }
    if (strcmp(gen, "small") == 0 || strcmp(gen, "bench") == 0) {
        ds_gen_params g;
        (gen[0] == 's' ? ds_gen_params_small : ds_gen_params_bench)(&g);
        if (seed >= 0)
            g.seed = (uint32_t)seed;
        return ds_scene_generate(&g, err);
    }
    base_error_set(err, "--generate takes small, bench, hard[:K], hills[:K] or minis[:K]");
    return NULL;
}

/* --crop WxH+X+Y into the scene's calibration. A file other commands read must pass their checks: the principal
 * point stays in the crop. 0, or -1 with err. */
static int apply_crop(ds_scene *s, const char *crop, base_error *err)
{
    int w, h, x0, y0;
    if (sscanf(crop, "%dx%d+%d+%d", &w, &h, &x0, &y0) != 4)
        return base_error_set(err, "--crop: expected WxH+X+Y, got '%s'", crop);
    if (ds_hard_crop(&s->calib, x0, y0, w, h, err) < 0 || calib_file_validate(&s->calib, "--crop", err) < 0)
        return -1;
    return 0;
}

int cmd_render(int argc, char **argv)
{
    const char *scene_path = NULL, *out = NULL, *gen = NULL, *crop = NULL, *marks = NULL;
    double seed = -1, hands = -1;
    int pair = 0;
    const cli_opt opts[] = {
        CLI_OUT_DIR("--out", &out, "DIR",
                    "image.jpg image.png calib.json roster.json snapshot.json truth.json pair.json after/image.jpg "
                    "after/image.png after/calib.json after/roster.json after/snapshot.json after/truth.json",
                    "where to write the picture and its truth"),
        CLI_CHOICE("--generate", &gen, "NAME", "small bench hard hills minis",
                   "small, bench, hard[:K], hills[:K] (the hard table K with hills) or minis[:K]: make a scene\n"
                   "instead of reading one"),
        CLI_WHOLE("--seed", &seed, "N", 0, 4294967295.0, "the random seed (default: the scene's)"),
        CLI_STRING("--crop", &crop, "WxH+X+Y", "render only that part of the frame"),
        CLI_FLAG("--pair", &pair, 1, "(hard and minis tables) also render DIR/after/ and DIR/pair.json"),
        CLI_CHOICE("--marks", &marks, "KIND", "mast rim sheet",
                   "(minis tables) rim labels and masts (default), rim labels alone, or the square tags\n"
                   "printed before them"),
        CLI_WHOLE("--hands", &hands, "N", 0, 10, "(hard and minis tables) N hands over the table instead of the\n"
                                                  "table's own (0: a clear table)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &scene_path, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!scene_path && !gen)
        return cli_missing("render", "the SCENE.json (or --generate NAME)"), EXIT_BAD_INPUT;
    if (scene_path && gen) {
        fprintf(stderr, "tableref render: give a SCENE.json or --generate, not both\n");
        return EXIT_BAD_INPUT;
    }
    if (!out)
        return cli_missing("render", "--out DIR (where to write the picture and its truth)"), EXIT_BAD_INPUT;
    base_error err;
    ds_hard_table *hard = NULL;
    ds_scene *s = make_scene(gen, scene_path, seed, hands, marks, &hard, &err);
    if (!s) {
        fprintf(stderr, "tableref render: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    /* The files a scene names (its snapshot, roster, calibration) are read now: none may be an output. */
    if (cli_plan_check("render") < 0) {
        if (hard)
            ds_hard_free(hard);
        else
            ds_scene_free(s);
        return EXIT_BAD_INPUT;
    }
    if (seed >= 0)
        s->render.seed = (uint32_t)seed;
    int rc = EXIT_BAD_INPUT;
    ds_hard_pair pr = {0};
    if (crop && apply_crop(s, crop, &err) < 0)
        goto done;
    if ((pair || hands >= 0) && !hard) {
        base_error_set(&err, "%s: only for --generate hard[:K] or minis[:K]", pair ? "--pair" : "--hands");
        goto done;
    }
    if (render_into(s, s->snapshot, 0, hard, out, &err) < 0)
        goto done;
    if (pair) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/after", out);
        if (ds_hard_pair_make(hard, &pr, &err) < 0 || render_into(s, pr.after, pr.after_frame_seed, hard, dir, &err) < 0 ||
            write_pair(out, &pr, &err) < 0)
            goto done;
        printf("pair: %s advanced %.1f\" (%s), %s marched %.1f\" (%s) -> %s/pair.json\n", pr.moves[0].unit,
               base_mm_to_in(pr.moves[0].forward_mm), pr.moves[0].legal ? "legal" : "illegal", pr.moves[1].unit,
               base_mm_to_in(pr.moves[1].forward_mm), pr.moves[1].legal ? "legal" : "illegal", out);
    }
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "tableref render: %s\n", err.msg);
    ds_hard_pair_clear(&pr);
    if (hard)
        ds_hard_free(hard);
    else
        ds_scene_free(s);
    return rc;
}
