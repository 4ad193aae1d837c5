#include "ds_loop.h"
#include "rules_relief.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds_calibview.h"
#include "ds_light.h"
#include "ds_render.h"
#include "media.h"

enum { QUEUE = 16 };

/* A picture the watch drew, and when. */
typedef struct shown {
    base_image *picture;
    double t_ms;
} shown;

struct ds_loop {
    const ds_sequence *q;
    calib_file cam;
    double centre[3];
    ds_loop_params lp;
    ds_render_params p;
    long hold, move;
    /* The still table in hand: keyframe `key` (-1 none), its light before the camera, its light map. */
    long key;
    base_image *still;
    ds_light_map *map;
    /* Pictures waiting for their latency (oldest first); `lit` the one lighting the table now. */
    shown queue[QUEUE];
    int n_queue;
    base_image *lit, *light;  /* the picture in use and its camera-frame light (NULL: dark) */
    base_image *frame;        /* the frame handed out */
    long frames_lit;
    unsigned char *lit_at;    /* per frame index: 1 when it was rendered with projected light */
    long n_lit_at;
};

void ds_loop_params_default(ds_loop_params *p)
{
    *p = (ds_loop_params){.ratio = DS_LIGHT_RATIO_DEFAULT, .black = DS_LIGHT_BLACK,
                          .latency_ms = DS_LOOP_LATENCY_MS, .supersample = 0};
}

void ds_loop_params_from_calib(const calib_file *cam, ds_loop_params *p)
{
    /* What `calibrate projector --camera` measured (calib_file.h); the defaults stand for what it did not. */
    const calib_projector *pj = &cam->projector;
    if (!pj->present)
        return;
    if (pj->latency_present && pj->latency_ms >= 0)
        p->latency_ms = pj->latency_ms;
    if (pj->brightness_ratio > 0)
        p->ratio = pj->brightness_ratio;
}

int ds_loop_calib(const ds_sequence *q, calib_file *cam, double projector_centre[3], base_error *err)
{
    *cam = q->scene->calib;
    if (cam->projector.present) {
        if (cam->projector.position_present) /* measured or given (`calibrate projector --position`) */
            memcpy(projector_centre, cam->projector.position_mm, 3 * sizeof *projector_centre);
        else
            ds_light_centre_guess(cam, projector_centre);
        return 0;
    }
    ds_projector pj;
    ds_projector_default(&pj, q->scene->roster->board_width, q->scene->roster->board_depth);
    ds_projector_board_to_px(&pj, cam->projector.H);
    cam->projector.present = 1;
    cam->projector.width = pj.width, cam->projector.height = pj.height;
    for (int i = 0; i < 3; i++) /* the lens: -R^T t */
        projector_centre[i] = -(pj.R[i] * pj.t[0] + pj.R[3 + i] * pj.t[1] + pj.R[6 + i] * pj.t[2]);
    /* On a table with hills the watch lights their tops along the projector's rays: it needs the lens's place,
     * as a real set-up gives it (`calibrate projector --position`). */
    const rules_snapshot *t = q->scene->snapshot;
    if (rules_relief_any(t->terrain, t->n_terrain)) {
        cam->projector.position_present = 1;
        memcpy(cam->projector.position_mm, projector_centre, sizeof cam->projector.position_mm);
    }
    return calib_file_validate(cam, "simulated projector", err);
}

ds_loop *ds_loop_new(const ds_sequence *q, const calib_file *cam, const double projector_centre[3],
                     const ds_loop_params *p, base_error *err)
{
    if (!cam->projector.present) {
        base_error_set(err, "simulator: the calibration has no projector section");
        return NULL;
    }
    ds_loop *L = calloc(1, sizeof *L);
    if (!L) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    L->q = q, L->cam = *cam, L->lp = *p, L->key = -1;
    memcpy(L->centre, projector_centre, sizeof L->centre);
    L->p = q->scene->render;
    if (p->supersample > 0)
        L->p.supersample = p->supersample;
    L->p.hands = 0, L->p.n_hand_at = 0; /* hands are where the moves happen */
    L->hold = ds_sequence_hold_frames(q), L->move = ds_sequence_move_frames(q);
    L->n_lit_at = ds_sequence_frame_count(q);
    if (!(L->lit_at = calloc((size_t)L->n_lit_at + 1, 1))) {
        ds_loop_free(L);
        base_error_set(err, "out of memory");
        return NULL;
    }
    return L;
}

void ds_loop_free(ds_loop *L)
{
    if (!L)
        return;
    for (int i = 0; i < L->n_queue; i++)
        base_image_free(L->queue[i].picture);
    base_image_free(L->still);
    ds_light_map_free(L->map);
    base_image_free(L->lit);
    base_image_free(L->light);
    base_image_free(L->frame);
    free(L->lit_at);
    free(L);
}

long ds_loop_frames_lit(const ds_loop *L) { return L->frames_lit; }
int ds_loop_was_lit(const ds_loop *L, long index) { return index >= 0 && index < L->n_lit_at && L->lit_at[index]; }

void ds_loop_project(void *loop, const base_image *picture, double t_ms)
{
    ds_loop *L = loop;
    if (L->n_queue == QUEUE) { /* the oldest has long been due: it goes */
        base_image_free(L->queue[0].picture);
        memmove(L->queue, L->queue + 1, sizeof L->queue[0] * (QUEUE - 1));
        L->n_queue--;
    }
    base_image *copy = base_image_clone(picture);
    if (copy)
        L->queue[L->n_queue++] = (shown){copy, t_ms};
}

static int all_black(const base_image *img)
{
    for (int y = 0; y < img->height; y++)
        for (size_t x = 0; x < (size_t)img->width * (size_t)img->channels; x++)
            if (img->data[y * img->stride + x])
                return 0;
    return 1;
}

/* The picture lighting the table at t_ms: the newest drawn at or before t_ms - latency. */
static void take_due_picture(ds_loop *L, double t_ms)
{
    int due = -1;
    for (int i = 0; i < L->n_queue; i++)
        if (L->queue[i].t_ms <= t_ms - L->lp.latency_ms + 1e-6)
            due = i;
    if (due < 0)
        return;
    base_image_free(L->lit);
    L->lit = L->queue[due].picture;
    for (int i = 0; i < due; i++)
        base_image_free(L->queue[i].picture);
    memmove(L->queue, L->queue + due + 1, sizeof L->queue[0] * (size_t)(L->n_queue - due - 1));
    L->n_queue -= due + 1;
    base_image_free(L->light);
    L->light = NULL;
}

/* The still table of keyframe k: its light before the camera, and where the projector's light lands on it. */
static int load_keyframe(ds_loop *L, long k, base_error *err)
{
    if (L->key == k)
        return 0;
    rules_snapshot *snap = ds_sequence_keyframe(L->q, (size_t)k, err);
    base_image *heights = NULL;
    ds_truth truth = {0};
    base_image_free(L->still), L->still = NULL;
    ds_light_map_free(L->map), L->map = NULL;
    base_image_free(L->light), L->light = NULL;
    L->key = -1;
    int rc = -1;
    if (snap && ds_render_optics(snap, L->q->scene->roster, &L->cam, &L->p, &L->still, &truth, err) == 0 &&
        ds_render_heights(snap, L->q->scene->roster, &L->cam, L->p.seed, &heights, err) == 0 &&
        (L->map = ds_light_map_new(&L->cam, L->cam.projector.H, L->centre, heights, err)))
        rc = 0;
    if (rc == 0)
        L->key = k;
    ds_truth_clear(&truth);
    base_image_free(heights);
    rules_snapshot_free(snap);
    return rc;
}

/* The camera's picture of `optics` with the projector's light; the hand drawn over it (classic style). */
static int capture(ds_loop *L, const base_image *optics, const ds_render_params *p, long index, const base_vec2 *hand,
                   base_error *err)
{
    if (L->lp.ratio > 0 && L->lit && !L->light && !all_black(L->lit) &&
        !(L->light = ds_light_map_apply(L->map, L->lit, err)))
        return -1;
    ds_render_params pc = *p;
    pc.sensor.light = L->lp.ratio > 0 ? L->light : NULL;
    pc.sensor.light_ratio = L->lp.ratio, pc.sensor.light_black = L->lp.black;
    if (pc.sensor.light) {
        L->frames_lit++;
        if (index < L->n_lit_at)
            L->lit_at[index] = 1;
    }
    base_image *gray = NULL, *bgr = NULL;
    const int real = p->style == DS_STYLE_REAL;
    if (ds_render_capture(optics, &pc, (uint32_t)(index * 2654435761u + 101), &gray, real ? &bgr : NULL, err) < 0)
        return -1;
    base_image_free(L->frame);
    L->frame = real ? bgr : gray;
    base_image_free(real ? gray : NULL);
    if (hand && !real)
        return ds_sequence_draw_hand(L->frame, &L->cam, *hand, err);
    return 0;
}

/* A frame of the move into keyframe k: the hand carries the unit. Lit with the map of the table before it
 * (the moving unit's bases are a few mm off their light for these frames). */
static int move_frame(ds_loop *L, size_t k, long j, long index, base_error *err)
{
    base_vec2 at;
    rules_snapshot *snap = ds_sequence_moving(L->q, k, (double)(j + 1) / (double)L->move, &at, err);
    if (!snap)
        return -1;
    ds_render_params pm = L->p;
    if (pm.style == DS_STYLE_REAL)
        pm.n_hand_at = 1, pm.hand_at[0] = (ds_hand_place){at.x, at.y, 75, 0.8};
    base_image *optics = NULL;
    ds_truth truth = {0};
    int rc = ds_render_optics(snap, L->q->scene->roster, &L->cam, &pm, &optics, &truth, err);
    if (rc == 0)
        rc = capture(L, optics, &pm, index, &at, err);
    base_image_free(optics);
    ds_truth_clear(&truth);
    rules_snapshot_free(snap);
    return rc;
}

int ds_loop_read(void *loop, long index, const base_image **image, base_error *err)
{
    ds_loop *L = loop;
    const long period = L->hold + L->move, k = index / period, r = index % period;
    if (index < 0 || (size_t)k > L->q->n_moves || ((size_t)k == L->q->n_moves && r >= L->hold))
        return 0;
    take_due_picture(L, index * 1000.0 / L->q->fps);
    if (r < L->hold) {
        if (load_keyframe(L, k, err) < 0 || capture(L, L->still, &L->p, index, NULL, err) < 0)
            return -1;
    } else if (load_keyframe(L, k, err) < 0 || move_frame(L, (size_t)k + 1, r - L->hold, index, err) < 0) {
        return -1;
    }
    if (L->lp.save_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%06ld.jpg", L->lp.save_dir, index);
        if (media_image_save(L->frame, path, 92, err) < 0)
            return -1;
    }
    *image = L->frame;
    return 1;
}
