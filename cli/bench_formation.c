/*
 * tableref bench formation: how well units are rebuilt from what the camera
 * reads, and whether the verdicts stay honest, on rendered before/after
 * pairs of crowded tables. Prints figures; not a test.
 *
 * Each table: 7 blocks of varied sizes whose incomplete rear ranks are
 * centred (the roster lists them left to right, as a player writes them,
 * so the roster's own slots put them left-aligned), every other unit's
 * listing shuffled, figures with spears and banners leaning over the tags,
 * hands, a tilted camera with lens distortion, noise and JPEG. Between the
 * two pictures one unit advances 4.5" at Advance 5" (legal), one marches
 * 11" at March 10" (illegal), nothing else moves.
 *
 * Figures printed per table and frame: models placed within 5 mm of the
 * truth, wrong ids (placed more than 5 mm off), models not placed, units
 * reported unseen; per pair: the call on each unit that moved and every
 * false ILLEGAL. `--write DIR` writes the scenes (tableref.scene) instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_words.h"
#include "ref_judge.h"
#include "vis_detect.h"

enum { TABLE_UNITS = 7, ADVANCING = 0, MARCHING = 1 };

static double frand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

/* A kind of block: base, tag, and the sizes it comes in. */
typedef struct block_kind {
    double base_w, base_d, tag_size, tag_forward;
    int n_models[4], files[4];
} block_kind;

static const block_kind kinds[] = {
    {25, 40, 16, 9, {10, 13, 17, 22}, {4, 5, 5, 6}},  /* infantry */
    {25, 50, 18, 10, {5, 7, 7, 5}, {3, 4, 3, 4}},     /* cavalry */
    {40, 40, 20, 7, {5, 3, 5, 7}, {3, 2, 4, 4}},      /* monsters, large infantry */
};

/*
 * Places `n` models `files` wide with the rear rank centred, front centre at
 * `front`, facing `th`; small gaps and hand jitter. Writes truth positions.
 */
static void place_block(int n, int files, double w, double d, base_vec2 front, double th, uint64_t *st,
                        base_vec2 *pos, double *facing)
{
    const double pw = w + 0.5, pd = d + 0.5;
    const int ranks = (n + files - 1) / files;
    const base_frame f = {front, th};
    for (int k = 0; k < n; k++) {
        int rank = k / files, file = k % files;
        int in_rank = rank == ranks - 1 ? n - rank * files : files;
        double shift = (files - in_rank) / 2.0;
        base_vec2 local = base_v2((file + shift - (files - 1) / 2.0) * pw, -pd / 2 - rank * pd);
        pos[k] =
            base_v2_add(base_frame_to_board(f, local), base_v2((frand(st) - 0.5) * 0.6, (frand(st) - 0.5) * 0.6));
        facing[k] = base_angle_wrap(th + (frand(st) - 0.5) * base_deg_to_rad(1.0));
    }
}

typedef struct table {
    ds_scene *before, *after;
    int moved_unit[2];  /* indices of the advancing and the marching unit */
} table;

static void table_free(table *t)
{
    ds_scene_free(t->before);
    ds_scene_free(t->after);
}

/* The renderer's settings for table `index`: crowded (spears, banners, hands) or light. */
static void table_render_params(ds_render_params *rp, int index, uint32_t seed, bool light)
{
    ds_render_params_default(rp);
    rp->seed = seed * 7 + (uint32_t)index;
    rp->spear_fraction = 0.5;
    rp->banner_fraction = 0.12;
    rp->hands = 2 + index % 3;
    if (light) {
        /* Smaller figures standing further back, few spears: most tags readable, a few rear ones not. */
        rp->figure_min_mm = 18, rp->figure_max_mm = 24;
        rp->spear_fraction = 0.15, rp->banner_fraction = 0.05;
        rp->hands = 1;
    }
}

/* The roster's and snapshot's storage, and the four board tags in the corners. */
static int table_alloc(ds_scene *s, base_error *err)
{
    roster_file *r = s->roster;
    strcpy(r->family, "tag36h11");
    r->board_width = 1500, r->board_depth = 1100;
    r->units = calloc(TABLE_UNITS, sizeof *r->units);
    r->models = calloc(TABLE_UNITS * 30, sizeof *r->models);
    r->board_tags = calloc(4, sizeof *r->board_tags);
    s->snapshot = rules_snapshot_new(r->board_width, r->board_depth);
    if (!r->units || !r->models || !r->board_tags || !s->snapshot)
        return base_error_set(err, "out of memory");
    const double bt = 40, corners[4][2] = {{bt, bt}, {1500 - bt, bt}, {1500 - bt, 1100 - bt}, {bt, 1100 - bt}};
    for (int i = 0; i < 4; i++)
        r->board_tags[r->n_board_tags++] = (roster_board_tag){i, corners[i][0], corners[i][1], 0, 0, bt};
    return 0;
}

/* Unit `ui` of table `index`: its roster entry, its models placed in a block facing `th` with the front
 * centre at `front`, listed in a shuffled order for every other unit. Draws from *st; *tag is the next tag. */
static int table_add_unit(ds_scene *s, int ui, int index, uint64_t *st, int *tag, base_error *err)
{
    /* Cells of a 3x3 grid; the two cells ahead of the moving units stay empty. */
    static const int cells[TABLE_UNITS][2] = {{0, 0}, {2, 0}, {1, 0}, {1, 1}, {0, 2}, {1, 2}, {2, 2}};
    const double margin = 90, cw = (1500 - 2 * margin) / 3, cd = (1100 - 2 * margin) / 3;
    roster_file *r = s->roster;
    const block_kind *k = &kinds[ui == 1 ? 1 : (ui + index) % 3];
    int pick = (int)(frand(st) * 4) % 4;
    int n = k->n_models[pick], files = k->files[pick];
    roster_unit *u = &r->units[r->n_units++];
    snprintf(u->id, sizeof u->id, "%s-%d",
             k == &kinds[0]   ? "spears"
             : k == &kinds[1] ? "riders"
                              : "brutes",
             ui + 1);
    snprintf(u->side, sizeof u->side, "%s", ui % 2 ? "blue" : "red");
    u->base_width = k->base_w, u->base_depth = k->base_d;
    u->advance_rate = base_in_to_mm(5), u->march_rate = base_in_to_mm(10), u->mobility = NAN;
    u->files = files;
    u->mount = (roster_tag_mount){base_v2(k->tag_forward, 0), 0, 3 + frand(st) * 2, k->tag_size};
    u->first_model = r->n_models;
    rules_unit *su = rules_snapshot_add_unit(s->snapshot, u->id, u->side);
    if (!su)
        return base_error_set(err, "out of memory");
    su->base_width = u->base_width, su->base_depth = u->base_depth;
    su->advance_rate = u->advance_rate, su->march_rate = u->march_rate, su->mobility = NAN;
    /* The moving units face across the board towards their empty cell. */
    bool mover = ui <= 1;
    double th = mover ? base_deg_to_rad(90 + (frand(st) - 0.5) * 16) : frand(st) * 2 * BASE_PI;
    base_vec2 centre = base_v2(margin + cw * (cells[ui][0] + 0.5), margin + cd * (cells[ui][1] + 0.5));
    int ranks = (n + files - 1) / files;
    base_vec2 front = base_v2_add(centre, base_v2_scale(base_v2_dir(th), ranks * (k->base_d + 0.5) / 2));
    base_vec2 pos[30];
    double facing[30];
    place_block(n, files, k->base_w, k->base_d, front, th, st, pos, facing);
    /* Every other unit is listed in a shuffled order: the roster's slots say nothing then. */
    int order[30];
    for (int m = 0; m < n; m++)
        order[m] = m;
    if (ui % 2 == 0)
        for (int m = n - 1; m > 0; m--) {
            int j = (int)(frand(st) * (m + 1)) % (m + 1), x = order[m];
            order[m] = order[j], order[j] = x;
        }
    for (int m = 0; m < n; m++) {
        roster_model *rm = &r->models[r->n_models++];
        snprintf(rm->id, sizeof rm->id, "%.40s-%d", u->id, m + 1);
        rm->tag_id = (*tag)++;
        rm->unit = (size_t)ui;
        rm->file = m % files, rm->rank = m / files;
        u->n_models++;
        if (!rules_unit_add_model(su, rm->id, pos[order[m]], facing[order[m]]))
            return base_error_set(err, "out of memory");
    }
    return 0;
}

/* The after picture: the same table, two units moved straight ahead, new hands. */
static int table_make_after(table *t, base_error *err)
{
    const ds_scene *s = t->before;
    ds_scene *a = calloc(1, sizeof *a);
    if (!a)
        return base_error_set(err, "out of memory");
    t->after = a;
    *a = *s;
    a->snapshot = rules_snapshot_clone(s->snapshot);
    a->roster = NULL;
    if (!a->snapshot)
        return base_error_set(err, "out of memory");
    a->render.seed = s->render.seed + 1000;
    a->render.effects.seed = s->render.effects.seed + 1000;
    static const double inches[2] = {4.5, 11};
    for (int k = 0; k < 2; k++) {
        rules_unit *u = &a->snapshot->units[t->moved_unit[k]];
        double sc = 0, ss = 0;
        for (size_t m = 0; m < u->n_models; m++)
            sc += cos(u->models[m].facing), ss += sin(u->models[m].facing);
        base_vec2 step = base_v2_scale(base_v2_dir(atan2(ss, sc)), base_in_to_mm(inches[k]));
        for (size_t m = 0; m < u->n_models; m++)
            u->models[m].pos = base_v2_add(u->models[m].pos, step);
    }
    return 0;
}

static int make_table(int index, uint32_t seed, bool light, table *t, base_error *err)
{
    memset(t, 0, sizeof *t);
    uint64_t st = (uint64_t)seed * 0x2545F4914F6CDD1Dull + 17u * (uint64_t)index;
    ds_scene *s = calloc(1, sizeof *s);
    roster_file *r = calloc(1, sizeof *r);
    if (!s || !r) {
        free(s);
        free(r);
        return base_error_set(err, "out of memory");
    }
    s->roster = r;
    t->before = s;
    table_render_params(&s->render, index, seed, light);
    static const double tilt[] = {14, 7, 11}, height[] = {1400, 1550, 1250}, k1[] = {-0.2, -0.1, -0.28};
    ds_camera_params cam = {4056, 3040, 3150, height[index % 3], tilt[index % 3], 60.0 + 90 * index, {750, 550},
                            {k1[index % 3], 0.05, 0.0005, -0.0003, 0}};
    if (ds_camera_make(&cam, &s->calib, err) < 0 || table_alloc(s, err) < 0)
        return -1;
    int tag = 10;
    t->moved_unit[ADVANCING] = 0, t->moved_unit[MARCHING] = 1;
    for (int ui = 0; ui < TABLE_UNITS; ui++)
        if (table_add_unit(s, ui, index, &st, &tag, err) < 0)
            return -1;
    return table_make_after(t, err);
}

typedef struct placed_tally {
    size_t models, within5, wrong, missing, units_unseen;
    size_t slots_within5;   /* true places with some model of the unit within 5 mm (identity aside) */
    size_t wrong_pinned;    /* wrong ids in units with a single placement (no alternatives) */
    size_t wrong_listed;    /* wrong ids in units listed in formation order (every other unit) */
    double err_max[3];      /* worst error per evidence (seen, rough, inferred), mm */
    double z_sum[3];        /* sum of (error / sigma)^2 per evidence */
    size_t z_n[3];
} placed_tally;

static void score_placement(const rules_snapshot *truth, const rules_snapshot *got, placed_tally *t, bool verbose)
{
    for (size_t i = 0; i < truth->n_units; i++) {
        const rules_unit *tu = &truth->units[i];
        size_t ev[3] = {0}, within = 0, wrong = 0;
        for (size_t m = 0; m < tu->n_models; m++) {
            const rules_model *tm = &tu->models[m];
            const rules_model *gm = rules_snapshot_find_model(got, tm->id, NULL);
            t->models++;
            if (!gm) {
                t->missing++;
                continue;
            }
            ev[gm->evidence]++;
            double e = base_v2_dist(gm->pos, tm->pos);
            t->err_max[gm->evidence] = fmax(t->err_max[gm->evidence], e);
            if (gm->sigma_mm > 0)
                t->z_sum[gm->evidence] += pow(e / gm->sigma_mm, 2), t->z_n[gm->evidence]++;
            if (base_v2_dist(gm->pos, tm->pos) <= 5.0)
                t->within5++, within++;
            else
                t->wrong++, wrong++;
        }
        const rules_unit *gu = rules_snapshot_find_unit(got, tu->id);
        size_t slots = 0;
        for (size_t m = 0; gu && m < tu->n_models; m++) {
            bool filled = false;
            for (size_t g = 0; g < gu->n_models && !filled; g++)
                filled = base_v2_dist(gu->models[g].pos, tu->models[m].pos) <= 5.0;
            slots += filled;
        }
        t->slots_within5 += slots;
        if (gu && gu->n_alternatives == 0 && gu->placements_complete)
            t->wrong_pinned += wrong;
        if (i % 2 == 1) /* make_table shuffles the listing of every even unit */
            t->wrong_listed += wrong;
        if (verbose) {
            printf("    %-10s %2zu models: seen %2zu rough %2zu inferred %2zu | within 5 mm %2zu wrong %2zu%s%s\n",
                   tu->id, tu->n_models, ev[0], ev[1], ev[2], within, wrong,
                   gu ? (gu->n_alternatives ? " | alternatives " : "") : " | unseen",
                   gu && gu->n_alternatives ? (gu->placements_complete ? "complete" : "incomplete") : "");
        }
    }
    t->units_unseen += got->n_unseen;
}

typedef struct verdict_tally {
    size_t pairs, false_illegal, advance_legal, advance_unsure, march_illegal, still_reported;
    double judge_ms, plain_ms;  /* ref_judge robust and plain (rules_move_check alone) on the same pairs */
} verdict_tally;

static int judge(const table *t, const rules_snapshot *b, const rules_snapshot *a, verdict_tally *vt, bool verbose,
                 bool plain, base_error *err)
{
    /* The snapshots as they are (rules_move_check alone), then as the referee judges them (ref_judge.h). */
    ref_judge_options opt;
    ref_judge_options_default(&opt);
    opt.robust = false;
    opt.suggest = false;
    ref_judgement j;
    ref_judgement_init(&j);
    if (ref_judge(b, a, &opt, &j, err) < 0)
        return -1;
    vt->plain_ms += j.check_ms;
    opt.robust = true;
    if (!plain && ref_judge(b, a, &opt, &j, err) < 0)
        return -1;
    vt->judge_ms += plain ? 0 : j.check_ms;
    const rules_report *r = &j.report;
    vt->pairs++;
    const char *adv = t->before->snapshot->units[t->moved_unit[ADVANCING]].id;
    const char *mar = t->before->snapshot->units[t->moved_unit[MARCHING]].id;
    for (size_t i = 0; i < r->n_units; i++) {
        const rules_unit_report *ur = &r->units[i];
        bool is_adv = strcmp(ur->unit_id, adv) == 0, is_mar = strcmp(ur->unit_id, mar) == 0;
        if (verbose)
            printf("    %-10s %-8s %s%s%s%s%s\n", ur->unit_id, rules_words_move(ur->move),
                   rules_verdict_word(ur->verdict), ur->n_violations ? " " : "",
                   ur->n_violations ? ur->violations[0].code : "", ur->why[0] ? ": " : "", ur->why);
        if (is_adv) {
            vt->advance_legal += ur->verdict == RULES_VERDICT_LEGAL;
            vt->advance_unsure += ur->verdict == RULES_VERDICT_CANNOT_TELL || ur->verdict == RULES_VERDICT_NOT_SEEN;
            vt->false_illegal += ur->verdict == RULES_VERDICT_ILLEGAL;
        } else if (is_mar) {
            vt->march_illegal += ur->verdict == RULES_VERDICT_ILLEGAL;
        } else {
            vt->still_reported += ur->move != RULES_MOVE_NONE;
            vt->false_illegal += ur->verdict == RULES_VERDICT_ILLEGAL;
        }
    }
    ref_judgement_clear(&j);
    return 0;
}

static int write_scene(const ds_scene *s, const char *dir, const char *name, base_error *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "tableref.scene");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddItemToObject(root, "snapshot", rules_json_from_snapshot(s->snapshot));
    cJSON_AddStringToObject(root, "roster", "roster.json");
    cJSON_AddStringToObject(root, "calibration", "calib.json");
    cJSON *jr = cJSON_AddObjectToObject(root, "render");
    cJSON_AddNumberToObject(jr, "seed", s->render.seed);
    cJSON_AddNumberToObject(jr, "spear_fraction", s->render.spear_fraction);
    cJSON_AddNumberToObject(jr, "banner_fraction", s->render.banner_fraction);
    cJSON_AddNumberToObject(jr, "hands", s->render.hands);
    double fh[2] = {s->render.figure_min_mm, s->render.figure_max_mm};
    cJSON_AddItemToObject(jr, "figure_height_mm", cJSON_CreateDoubleArray(fh, 2));
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}

static int write_table(const table *t, const char *dir, base_error *err)
{
    char path[4200];
    if (mkdir(dir, 0777) != 0 && access(dir, W_OK) != 0)
        return base_error_set(err, "%s: cannot create the folder", dir);
    snprintf(path, sizeof path, "%s/roster.json", dir);
    if (roster_save(t->before->roster, path, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/calib.json", dir);
    if (calib_file_save(&t->before->calib, path, err) < 0)
        return -1;
    return write_scene(t->before, dir, "scene-before.json", err) < 0 ||
                   write_scene(t->after, dir, "scene-after.json", err) < 0
               ? -1
               : 0;
}

static rules_snapshot *render_detect(const ds_scene *s, const roster_file *roster, vis_report *rep, base_error *err)
{
    base_image *img = NULL;
    ds_truth truth = {0};
    rules_snapshot *snap = NULL;
    if (ds_render(s->snapshot, roster, &s->calib, &s->render, &img, &truth, err) == 0) {
        roster_map *map = roster_map_new(roster, err); /* vision takes the roster's map */
        vis_detector *d = map ? vis_detector_new(map, &s->calib, err) : NULL;
        roster_map_free(map);
        if (d && vis_detector_run(d, img->data, img->width, img->height, img->stride, NULL, &snap, rep, err) < 0)
            snap = NULL;
        vis_detector_free(d);
    }
    ds_truth_clear(&truth);
    base_image_free(img);
    return snap;
}

/* Writes table ti's scenes to write_dir/table-(ti+1). */
static int write_table_dir(const table *t, const char *write_dir, int ti, base_error *err)
{
    char dir[4096];
    if (mkdir(write_dir, 0777) != 0 && access(write_dir, W_OK) != 0)
        return base_error_set(err, "%s: cannot create the folder", write_dir);
    snprintf(dir, sizeof dir, "%s/table-%d", write_dir, ti + 1);
    if (write_table(t, dir, err) < 0)
        return -1;
    printf("formation: wrote %s/{scene-before,scene-after,roster,calib}.json\n", dir);
    return 0;
}

static void tally_add(placed_tally *all, const placed_tally *pt)
{
    all->models += pt->models, all->within5 += pt->within5, all->wrong += pt->wrong, all->missing += pt->missing;
    all->units_unseen += pt->units_unseen, all->slots_within5 += pt->slots_within5;
    all->wrong_pinned += pt->wrong_pinned, all->wrong_listed += pt->wrong_listed;
    for (int e = 0; e < 3; e++) {
        all->err_max[e] = fmax(all->err_max[e], pt->err_max[e]);
        all->z_sum[e] += pt->z_sum[e], all->z_n[e] += pt->z_n[e];
    }
}

/* Renders and detects table ti's two pictures, prints how each frame's models were placed and adds them to
 * *all; got[k] is what was detected (NULL on failure). */
static void detect_and_score(const table *t, int ti, int verbose, rules_snapshot *got[2], placed_tally *all,
                             base_error *err)
{
    const ds_scene *sc[2] = {t->before, t->after};
    for (int k = 0; k < 2; k++) {
        vis_report rep = {0};
        got[k] = render_detect(sc[k], t->before->roster, &rep, err);
        vis_report_clear(&rep);
        if (!got[k])
            break;
        placed_tally pt = {0};
        score_placement(sc[k]->snapshot, got[k], &pt, verbose);
        printf("formation: table %d %-6s models=%zu placed_within_5mm=%zu (%.1f%%) places_filled_within_5mm=%zu "
               "wrong_ids=%zu (listed in order: %zu, one placement: %zu) not_placed=%zu units_unseen=%zu\n",
               ti + 1, k ? "after" : "before", pt.models, pt.within5, 100.0 * pt.within5 / pt.models,
               pt.slots_within5, pt.wrong, pt.wrong_listed, pt.wrong_pinned, pt.missing, pt.units_unseen);
        tally_add(all, &pt);
    }
}

static void print_summary(const placed_tally *all, const verdict_tally *vt, int plain)
{
    printf("formation: all models=%zu placed_within_5mm=%.1f%% places_filled_within_5mm=%.1f%% wrong_ids=%zu "
           "(listed in order: %zu, one placement: %zu) not_placed=%zu units_unseen=%zu\n",
           all->models, 100.0 * all->within5 / all->models, 100.0 * all->slots_within5 / all->models, all->wrong,
           all->wrong_listed, all->wrong_pinned, all->missing, all->units_unseen);
    for (int e = 0; e < 3; e++)
        printf("formation: %-8s models=%zu worst_error_mm=%.2f rms_error_over_sigma=%.2f\n",
               rules_evidence_word((rules_evidence)e), all->z_n[e], all->err_max[e],
               all->z_n[e] ? sqrt(all->z_sum[e] / all->z_n[e]) : NAN);
    printf("calls: pairs=%zu false_illegal=%zu advance_4.5in_legal=%zu advance_cannot_tell=%zu march_11in_illegal=%zu "
           "unmoved_units_reported_moved=%zu\n",
           vt->pairs, vt->false_illegal, vt->advance_legal, vt->advance_unsure, vt->march_illegal, vt->still_reported);
    printf("calls: judging time per pair: rules_robust_check %.1f ms, rules_move_check alone %.1f ms\n",
           plain ? NAN : vt->judge_ms / vt->pairs, vt->plain_ms / vt->pairs);
}

static const cli_doc doc = {
    "bench formation",
    "usage: tableref bench formation [--tables N] [--seed S] [--light] [--verbose] [--plain]\n"
    "                                [--write DIR]\n"
    "\n"
    "Renders N (default 3) crowded before/after tables at 4056x3040 and prints\n"
    "how many models are placed within 5 mm, wrong ids, unseen units, and the\n"
    "calls on the moves (one legal 4.5\" Advance, one illegal 11\" March per\n"
    "table).\n"
    "\n",
    NULL,
};

int bench_formation(int argc, char **argv)
{
    double tables = 3, seed = 1;
    int verbose = 0, plain = 0, light = 0;
    const char *write_dir = NULL;
    const cli_opt opts[] = {
        CLI_WHOLE("--tables", &tables, "N", 1, 20, "tables rendered (3)"),
        CLI_WHOLE("--seed", &seed, "S", 0, 4294967295.0, "the first table's seed (1)"),
        CLI_FLAG("--verbose", &verbose, 1, "every model's figures"),
        CLI_FLAG("--plain", &plain, 1,
                 "judge with rules_move_check alone (no hypotheses, no\n"
                 "uncertainty), as before rules_robust"),
        CLI_FLAG("--light", &light, 1, "smaller figures, few spears, one hand (most tags readable)"),
        CLI_OUT_DIR("--write", &write_dir, "DIR",
                    "table-*/roster.json table-*/calib.json table-*/scene-before.json table-*/scene-after.json",
                    "write table k's scenes to DIR/table-k instead"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    base_error err = {0};
    placed_tally all = {0};
    verdict_tally vt = {0};
    for (int ti = 0; ti < (int)tables; ti++) {
        table t;
        if (make_table(ti, (uint32_t)seed, light, &t, &err) < 0) {
            table_free(&t);
            fprintf(stderr, "tableref bench formation: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
        if (write_dir) {
            int rc = write_table_dir(&t, write_dir, ti, &err);
            table_free(&t);
            if (rc < 0) {
                fprintf(stderr, "tableref bench formation: %s\n", err.msg);
                return EXIT_BAD_INPUT;
            }
            continue;
        }
        rules_snapshot *got[2] = {NULL, NULL};
        detect_and_score(&t, ti, verbose, got, &all, &err);
        int rc = got[0] && got[1] ? judge(&t, got[0], got[1], &vt, verbose, plain, &err) : -1;
        rules_snapshot_free(got[0]);
        rules_snapshot_free(got[1]);
        table_free(&t);
        if (rc < 0) {
            fprintf(stderr, "tableref bench formation: table %d: %s\n", ti + 1, err.msg);
            return EXIT_BAD_INPUT;
        }
    }
    if (!write_dir)
        print_summary(&all, &vt, plain);
    return 0;
}
