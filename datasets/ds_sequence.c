#include "ds_sequence.h"
#include "ds_climb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base_fields.h"
#include "ds_hard.h"
#include "media.h"
#include "rules_json.h"
#include "vis_camera.h"
#include "media.h"

void ds_sequence_free(ds_sequence *q)
{
    if (!q)
        return;
    ds_scene_free(q->scene);
    free(q->moves);
    free(q);
}

/* The sequence's keys and a move's: strict as every reader, a typo ("forwad_mm") is refused with the key meant,
 * never a move silently made of nothing. */
static const char *const sequence_keys[] = {"format", "version", "scene", "fps", "hold_s", "move_s", "moves", NULL};
static const char *const move_keys[] = {"unit", "forward_mm", "left_mm", "rotate_deg", "says", NULL};

/* The sequence's moves into q (its scene read): 0, or -1 naming the file and the move. */
static int read_moves(const cJSON *root, const char *path, ds_sequence *q, base_error *err)
{
    const cJSON *moves = base_json_array(root, "moves", "", true, err);
    if (!moves)
        return base_error_prefix(err, path), -1;
    int n = cJSON_GetArraySize(moves);
    if (!(q->moves = calloc((size_t)n + 1, sizeof *q->moves)))
        return base_error_set(err, "out of memory");
    for (int i = 0; i < n; i++) {
        const cJSON *m = cJSON_GetArrayItem(moves, i);
        ds_sequence_move *mv = &q->moves[q->n_moves];
        char where[32];
        double rot = 0;
        snprintf(where, sizeof where, "moves[%d]", i);
        if (!cJSON_IsObject(m))
            return base_error_set(err, "%s: %s: expected an object (unit, forward_mm, left_mm, rotate_deg, says)", path,
                                  where);
        if (base_fields_known(m, where, move_keys, err) < 0 ||
            base_json_string(m, "unit", where, true, mv->unit, sizeof mv->unit, err) < 0 ||
            base_json_number(m, "forward_mm", where, false, &mv->forward_mm, err) < 0 ||
            base_json_number(m, "left_mm", where, false, &mv->left_mm, err) < 0 ||
            base_json_number(m, "rotate_deg", where, false, &rot, err) < 0 ||
            base_json_string(m, "says", where, false, mv->says, sizeof mv->says, err) < 0)
            return base_error_prefix(err, path), -1;
        if (!rules_snapshot_find_unit(q->scene->snapshot, mv->unit))
            return base_error_set(err, "%s: %s.unit: no unit \"%s\" in the scene", path, where, mv->unit);
        mv->rotate_rad = base_deg_to_rad(rot);
        q->n_moves++;
    }
    return 0;
}

ds_sequence *ds_sequence_load(const char *path, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    ds_sequence *q = calloc(1, sizeof *q);
    char fmt[64] = "", scene[1024] = "", scene_path[2048];
    int version = 0;
    if (!root || !q) {
        if (!q)
            base_error_set(err, "out of memory");
        goto fail;
    }
    q->fps = 5, q->hold_s = 2, q->move_s = 1.2;
    if (base_fields_known(root, "", sequence_keys, err) < 0 ||
        base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0 ||
        base_json_int(root, "version", "", true, &version, err) < 0 ||
        base_json_string(root, "scene", "", true, scene, sizeof scene, err) < 0 ||
        base_json_number(root, "fps", "", false, &q->fps, err) < 0 ||
        base_json_number(root, "hold_s", "", false, &q->hold_s, err) < 0 ||
        base_json_number(root, "move_s", "", false, &q->move_s, err) < 0) {
        base_error_prefix(err, path);
        goto fail;
    }
    if (strcmp(fmt, "tableref.sequence") != 0 || version != 1) {
        base_error_set(err, "%s: format/version: expected \"tableref.sequence\" version 1", path);
        goto fail;
    }
    if (!(q->fps > 0 && q->fps <= 120) || !(q->hold_s > 0 && q->hold_s < 600) || !(q->move_s > 0 && q->move_s < 600)) {
        base_error_set(err, "%s: fps 0..120, hold_s and move_s 0..600 s", path);
        goto fail;
    }
    const char *slash = strrchr(path, '/');
    int sn = scene[0] == '/' || !slash ? snprintf(scene_path, sizeof scene_path, "%s", scene)
                                      : snprintf(scene_path, sizeof scene_path, "%.*s/%s", (int)(slash - path), path, scene);
    if (sn < 0 || (size_t)sn >= sizeof scene_path) { /* never cut: a cut path can name another file */
        base_error_setc(err, BASE_E_TOO_LARGE, "%s: scene: the path is over %zu bytes", path, sizeof scene_path - 1);
        goto fail;
    }
    if (!(q->scene = ds_scene_load(scene_path, err)))
        goto fail;
    if (read_moves(root, path, q, err) < 0)
        goto fail;
    if (base_fields_all_checked(root, path, err) < 0)
        goto fail;
    cJSON_Delete(root);
    return q;
fail:
    cJSON_Delete(root);
    ds_sequence_free(q);
    return NULL;
}

/* Moves unit `id` in s by `alpha` (0..1) of the move. */
static void apply_move(rules_snapshot *s, const ds_sequence_move *mv, double alpha, base_vec2 *centre_out)
{
    rules_unit *u = rules_snapshot_find_unit(s, mv->unit);
    base_vec2 c = base_v2(0, 0);
    double fs = 0, fc = 0;
    for (size_t k = 0; k < u->n_models; k++) {
        c = base_v2_add(c, u->models[k].pos);
        fs += sin(u->models[k].facing), fc += cos(u->models[k].facing);
    }
    c = base_v2_scale(c, 1.0 / (double)u->n_models);
    const double facing = atan2(fs, fc);
    const base_vec2 fwd = base_v2_dir(facing), left = base_v2_dir(facing + BASE_PI / 2);
    const base_vec2 T = base_v2_add(base_v2_scale(fwd, alpha * mv->forward_mm), base_v2_scale(left, alpha * mv->left_mm));
    const double rot = alpha * mv->rotate_rad;
    const base_vec2 c2 = base_v2_add(c, T);
    for (size_t k = 0; k < u->n_models; k++) {
        rules_model *m = &u->models[k];
        m->pos = base_v2_add(c2, base_v2_rot(base_v2_sub(m->pos, c), rot));
        m->facing = base_angle_wrap(m->facing + rot);
    }
    if (centre_out)
        *centre_out = c2;
}

rules_snapshot *ds_sequence_keyframe(const ds_sequence *q, size_t k, base_error *err)
{
    rules_snapshot *s = rules_snapshot_clone(q->scene->snapshot);
    if (!s) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < k && i < q->n_moves; i++)
        apply_move(s, &q->moves[i], 1.0, NULL);
    return s;
}

rules_snapshot *ds_sequence_moving(const ds_sequence *q, size_t k, double alpha, base_vec2 *hand_at, base_error *err)
{
    if (k < 1 || k > q->n_moves) {
        base_error_set(err, "sequence: there is no move into keyframe %zu (%zu moves)", k, q->n_moves);
        return NULL;
    }
    rules_snapshot *s = ds_sequence_keyframe(q, k - 1, err);
    if (s)
        apply_move(s, &q->moves[k - 1], alpha, hand_at);
    return s;
}

long ds_sequence_hold_frames(const ds_sequence *q) { return lround(q->hold_s * q->fps) > 0 ? lround(q->hold_s * q->fps) : 1; }
long ds_sequence_move_frames(const ds_sequence *q) { return lround(q->move_s * q->fps) > 0 ? lround(q->move_s * q->fps) : 1; }

long ds_sequence_frame_count(const ds_sequence *q)
{
    return ds_sequence_hold_frames(q) * (long)(q->n_moves + 1) + ds_sequence_move_frames(q) * (long)q->n_moves;
}

long ds_sequence_hold_start(const ds_sequence *q, size_t k)
{
    return (long)k * (ds_sequence_hold_frames(q) + ds_sequence_move_frames(q));
}

/*
 * A hand and forearm reaching from the near edge (y < 0) to `at`, 150 mm
 * above the table, drawn over the finished frame: it hides whatever is
 * below it, tags included, the way a player's hand does.
 */
static int draw_hand(base_image *img, const vis_camera *cam, base_vec2 at, base_error *err)
{
    const double z = 150;
    double poly[2 * 40];
    int n = 0;
    for (int k = 0; k < 24; k++) {
        double a = 2 * BASE_PI * k / 24;
        double X[3] = {at.x + 55 * cos(a), at.y + 45 * sin(a), z};
        if (vis_camera_project(cam, X, poly + 2 * n))
            n++;
    }
    if (n >= 3 && cvs_render_fill_poly(img, poly, n, 172, NULL, 0, err) < 0)
        return -1;
    /* The forearm, towards the player at the near edge. */
    const double X4[4][3] = {{at.x - 35, at.y - 20, z}, {at.x + 35, at.y - 20, z},
                             {at.x + 45, -300, z + 120}, {at.x - 45, -300, z + 120}};
    n = 0;
    for (int k = 0; k < 4; k++)
        if (vis_camera_project(cam, X4[k], poly + 2 * n))
            n++;
    if (n >= 3 && cvs_render_fill_poly(img, poly, n, 150, NULL, 0, err) < 0)
        return -1;
    return 0;
}

int ds_sequence_draw_hand(base_image *img, const calib_file *cam, base_vec2 at, base_error *err)
{
    vis_camera c;
    vis_camera_init(&c, cam);
    return draw_hand(img, &c, at, err);
}

static int make_dir(const char *path, base_error *err)
{
    if (mkdir(path, 0777) < 0 && errno != EEXIST)
        return base_error_set(err, "%s: cannot create: %s", path, strerror(errno));
    return 0;
}

/* Sensor noise differs from frame to frame even when nothing moves. */
static int add_noise(base_image *img, long frame, base_error *err)
{
    cvs_effects fx = {0};
    fx.noise_sigma = 1.2;
    fx.seed = (uint32_t)(frame * 2654435761u + 11);
    return cvs_render_effects(img, &fx, err);
}

/* Writes frame `frame` as DIR/frames/NNNNNN.jpg and appends its entry to `frames`; the entry, or NULL. */
static cJSON *save_frame(const base_image *img, const char *dir, long frame, double fps, int quality,
                         const char *phase, cJSON *frames, base_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/frames/%06ld.jpg", dir, frame);
    if (media_image_save(img, path, quality, err) < 0)
        return NULL;
    cJSON *f = cJSON_CreateObject();
    if (!f) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    cJSON_AddItemToArray(frames, f);
    cJSON_AddNumberToObject(f, "frame", (double)frame);
    base_json_add_number(f, "t_ms", frame * 1000.0 / fps, 3);
    cJSON_AddStringToObject(f, "phase", phase);
    return f;
}

/* The real style's camera on one frame: new sensor noise each frame; written in colour. */
static int capture_frame(const base_image *optics, const ds_render_params *p, long frame, const char *dir, double fps,
                         int quality, const char *phase, cJSON *frames, cJSON **entry, base_error *err)
{
    base_image *gray = NULL, *bgr = NULL;
    if (ds_render_capture(optics, p, (uint32_t)(frame * 2654435761u + 101), &gray, &bgr, err) < 0)
        return -1;
    *entry = save_frame(bgr, dir, frame, fps, quality, phase, frames, err);
    base_image_free(gray);
    base_image_free(bgr);
    return *entry ? 0 : -1;
}

/* The real style: a hand (with its arm) carrying the unit, low over it. */
static int render_real_move(const ds_scene *sc, const rules_snapshot *tmp, const ds_render_params *p, base_vec2 at,
                            long frame, const char *dir, double fps, int quality, cJSON *frames, cJSON **entry,
                            base_error *err)
{
    ds_render_params pm = *p;
    pm.n_hand_at = 1;
    pm.hand_at[0] = (ds_hand_place){at.x, at.y, 75, 0.8};
    base_image *optics = NULL;
    ds_truth truth = {0};
    int rc = ds_render_optics(tmp, sc->roster, &sc->calib, &pm, &optics, &truth, err);
    if (rc == 0)
        rc = capture_frame(optics, &pm, frame, dir, fps, quality, "move", frames, entry, err);
    base_image_free(optics);
    ds_truth_clear(&truth);
    return rc;
}

/* The folders, the calibration and the roster a rendered sequence starts with. */
static int write_sequence_setup(const ds_scene *sc, const char *dir, base_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/frames", dir);
    if (make_dir(dir, err) < 0 || make_dir(path, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/truth", dir);
    if (make_dir(path, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/calib.json", dir);
    if (calib_file_save(&sc->calib, path, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/roster.json", dir);
    return roster_save(sc->roster, path, err);
}

/* A sequence being rendered: its settings, the frame count so far and the pictures and snapshots in hand. */
typedef struct seq_render {
    const ds_sequence *q;
    const ds_scene *sc;
    ds_render_params p;
    vis_camera cam;
    const char *dir;
    int real;                 /* DS_STYLE_REAL: the light once, the camera (its noise) per frame */
    int quality;
    cJSON *frames;            /* the index's frame entries */
    long frame;
    rules_snapshot *key, *tmp;
    base_image *still, *img;
    ds_truth truth;
} seq_render;

/* The frames of the move into keyframe k (k > 0): the hand carries the unit there. */
static int render_move_frames(seq_render *R, size_t k, base_error *err)
{
    const ds_sequence *q = R->q;
    const long mv = ds_sequence_move_frames(q);
    for (long j = 0; j < mv; j++) {
        rules_snapshot_free(R->tmp);
        if (!(R->tmp = rules_snapshot_clone(R->key)))
            return base_error_set(err, "out of memory");
        base_vec2 at;
        apply_move(R->tmp, &q->moves[k - 1], (double)(j + 1) / (double)mv, &at);
        base_image_free(R->img);
        R->img = NULL;
        ds_truth_clear(&R->truth);
        cJSON *f = NULL;
        if (R->real) {
            if (render_real_move(R->sc, R->tmp, &R->p, at, R->frame++, R->dir, q->fps, R->quality, R->frames, &f,
                                 err) < 0)
                return -1;
        } else {
            if (ds_render(R->tmp, R->sc->roster, &R->sc->calib, &R->p, &R->img, &R->truth, err) < 0 ||
                draw_hand(R->img, &R->cam, at, err) < 0 || add_noise(R->img, R->frame, err) < 0)
                return -1;
            if (!(f = save_frame(R->img, R->dir, R->frame++, q->fps, R->quality, "move", R->frames, err)))
                return -1;
        }
        cJSON_AddNumberToObject(f, "move", (double)k);
        cJSON_AddStringToObject(f, "unit", q->moves[k - 1].unit);
    }
    return 0;
}

/* Keyframe k: its true snapshot, then the frames that hold still on it
 * (real style: the light once, the camera's noise per frame; classic: one
 * picture, new noise per frame). */
static int render_hold_frames(seq_render *R, size_t k, base_error *err)
{
    const ds_sequence *q = R->q;
    char path[4096];
    rules_snapshot_free(R->key);
    if (!(R->key = ds_sequence_keyframe(q, k, err)))
        return -1;
    snprintf(path, sizeof path, "%s/truth/keyframe-%zu.json", R->dir, k);
    if (rules_json_save_snapshot(R->key, path, err) < 0)
        return -1;
    base_image_free(R->still);
    R->still = NULL;
    ds_truth_clear(&R->truth);
    if ((R->real ? ds_render_optics : ds_render)(R->key, R->sc->roster, &R->sc->calib, &R->p, &R->still, &R->truth,
                                                  err) < 0)
        return -1;
    const long hold = ds_sequence_hold_frames(q);
    for (long j = 0; j < hold; j++) {
        cJSON *f = NULL;
        if (R->real) {
            if (capture_frame(R->still, &R->p, R->frame++, R->dir, q->fps, R->quality, "hold", R->frames, &f, err) < 0)
                return -1;
        } else {
            base_image_free(R->img);
            if (!(R->img = base_image_clone(R->still)))
                return base_error_set(err, "out of memory");
            if (add_noise(R->img, R->frame, err) < 0 ||
                !(f = save_frame(R->img, R->dir, R->frame++, q->fps, R->quality, "hold", R->frames, err)))
                return -1;
        }
        cJSON_AddNumberToObject(f, "keyframe", (double)k);
    }
    return 0;
}

int ds_sequence_render(const ds_sequence *q, const char *dir, int supersample, base_error *err)
{
    seq_render R = {.q = q, .sc = q->scene, .p = q->scene->render, .dir = dir};
    if (supersample > 0)
        R.p.supersample = supersample;
    R.p.hands = 0;  /* hands are drawn where the moves happen */
    R.p.n_hand_at = 0;
    R.real = R.p.style == DS_STYLE_REAL;
    R.quality = R.p.effects.jpeg_quality > 0 ? R.p.effects.jpeg_quality : 90;
    R.p.effects.jpeg_quality = 0;  /* compressed once, when written */
    if (write_sequence_setup(R.sc, dir, err) < 0)
        return -1;
    vis_camera_init(&R.cam, &R.sc->calib);

    cJSON *index = cJSON_CreateObject();
    R.frames = index ? cJSON_AddArrayToObject(index, "frames") : NULL;
    if (!R.frames) {
        cJSON_Delete(index);
        return base_error_set(err, "out of memory");
    }
    cJSON_AddStringToObject(index, "format", "tableref.sequence-frames");
    cJSON_AddNumberToObject(index, "version", 1);
    cJSON_AddNumberToObject(index, "fps", q->fps);
    int rc = 0;
    for (size_t k = 0; k <= q->n_moves && rc == 0; k++) {
        if (k > 0)
            rc = render_move_frames(&R, k, err);
        if (rc == 0)
            rc = render_hold_frames(&R, k, err);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/frames.json", dir);
    if (rc == 0)
        rc = base_json_write_file(index, path, err) < 0 ? -1 : 0;
    cJSON_Delete(index);
    rules_snapshot_free(R.key);
    rules_snapshot_free(R.tmp);
    base_image_free(R.still);
    base_image_free(R.img);
    ds_truth_clear(&R.truth);
    return rc;
}

/* The turn of the table `hp` generates (ds_sequence_hard, ds_sequence_minis). */
static ds_sequence *table_turn(const ds_hard_params *hp, const char *crop, base_error *err)
{
    ds_hard_table *t = ds_hard_generate(hp, err);
    ds_sequence *q = calloc(1, sizeof *q);
    ds_hard_pair pr = {0};
    int w, h, x0, y0;
    if (!t || !q || !(q->moves = calloc(2, sizeof *q->moves)) || ds_hard_pair_make(t, &pr, err) < 0) {
        if (t && !q)
            base_error_set(err, "out of memory");
        goto fail;
    }
    if (crop && (sscanf(crop, "%dx%d+%d+%d", &w, &h, &x0, &y0) != 4 || ds_hard_crop(&t->scene->calib, x0, y0, w, h, err) < 0 ||
                 calib_file_validate(&t->scene->calib, "crop", err) < 0)) {
        if (sscanf(crop, "%dx%d+%d+%d", &w, &h, &x0, &y0) != 4)
            base_error_set(err, "crop: expected WxH+X+Y, got '%s'", crop);
        goto fail;
    }
    q->fps = 5, q->hold_s = 1.2, q->move_s = 1.0;
    for (int k = 0; k < 2; k++) {
        ds_sequence_move *m = &q->moves[q->n_moves++];
        snprintf(m->unit, sizeof m->unit, "%s", pr.moves[k].unit);
        m->forward_mm = pr.moves[k].forward_mm;
        snprintf(m->says, sizeof m->says, "%s %.1f\" forward at %s %.0f\": %s", k ? "march" : "advance",
                 base_mm_to_in(pr.moves[k].forward_mm), pr.moves[k].rate, base_mm_to_in(pr.moves[k].rate_mm),
                 pr.moves[k].legal ? "legal" : "illegal");
    }
    q->scene = t->scene;  /* the sequence owns the scene from here */
    t->scene = NULL;
    ds_hard_pair_clear(&pr);
    ds_hard_free(t);
    return q;
fail:
    ds_hard_pair_clear(&pr);
    ds_hard_free(t);
    ds_sequence_free(q);
    return NULL;
}

ds_sequence *ds_sequence_hard(int table, const char *crop, base_error *err)
{
    ds_hard_params hp;
    ds_hard_preset(table, &hp);
    return table_turn(&hp, crop, err);
}

ds_sequence *ds_sequence_minis(int table, const char *crop, base_error *err)
{
    ds_hard_params hp;
    ds_hard_minis_preset(table, DS_HARD_MARKS_MAST, &hp);
    return table_turn(&hp, crop, err);
}

ds_sequence *ds_sequence_climb(bool crop, base_error *err)
{
    /* The climbers march off the hill's far side at the end: 3.5 + 3.9 + 8.5" of room ahead of them. */
    static const double inches[3] = {3.5, 3.9, 8.5};
    static const char *const says[3] = {"advance 3.5\" onto the hill (Advance 4\"): legal",
                                         "advance 3.9\" along its top (Advance 4\"): legal",
                                         "march 8.5\" down off its far side (March 8\"): illegal"};
    ds_climb c;
    ds_sequence *q = calloc(1, sizeof *q);
    if (!q || !(q->moves = calloc(3, sizeof *q->moves))) {
        ds_sequence_free(q);
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (ds_climb_make(DS_CLIMB_ONTO, false, &c, err) < 0) {
        ds_sequence_free(q);
        return NULL;
    }
    q->fps = 5, q->hold_s = 1.2, q->move_s = 1.0;
    for (int k = 0; k < 3; k++) {
        ds_sequence_move *m = &q->moves[q->n_moves++];
        snprintf(m->unit, sizeof m->unit, "%s", c.unit);
        m->forward_mm = base_in_to_mm(inches[k]);
        snprintf(m->says, sizeof m->says, "%s", says[k]);
    }
    q->scene = c.scene; /* the sequence owns the scene from here */
    c.scene = NULL;
    int rc = 0;
    if (crop) {
        rules_snapshot *keys[4] = {NULL};
        for (size_t k = 0; k <= q->n_moves && rc == 0; k++)
            rc = (keys[k] = ds_sequence_keyframe(q, k, err)) ? 0 : -1;
        rc = rc == 0 ? ds_climb_crop(q->scene, &c.hill, (const rules_snapshot *const *)keys, q->n_moves + 1, true, err) : -1;
        for (size_t k = 0; k <= q->n_moves; k++)
            rules_snapshot_free(keys[k]);
    }
    ds_climb_clear(&c);
    if (rc < 0) {
        ds_sequence_free(q);
        return NULL;
    }
    return q;
}
