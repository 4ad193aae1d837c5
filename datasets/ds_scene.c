#include "ds_scene.h"
#include "ds_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "rules_json.h"

static double frand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

int ds_camera_make(const ds_camera_params *p, calib_file *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    const double th = p->tilt_deg * BASE_PI / 180, ph = p->tilt_dir_deg * BASE_PI / 180;
    /* Optical axis, board frame, pointing down at the target. */
    double z[3] = {sin(th) * cos(ph), sin(th) * sin(ph), -cos(th)};
    double D = p->height_mm / cos(th);
    double C[3] = {p->target[0] - D * z[0], p->target[1] - D * z[1], p->height_mm};
    /* Image x follows board +x as closely as the tilt allows. */
    double ex[3] = {1, 0, 0}, d = z[0];
    double x[3] = {ex[0] - d * z[0], ex[1] - d * z[1], ex[2] - d * z[2]};
    double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int i = 0; i < 3; i++)
        x[i] /= n;
    double y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
    for (int i = 0; i < 3; i++) {
        out->R[i] = x[i];
        out->R[3 + i] = y[i];
        out->R[6 + i] = z[i];
    }
    for (int i = 0; i < 3; i++)
        out->t[i] = -(out->R[3 * i] * C[0] + out->R[3 * i + 1] * C[1] + out->R[3 * i + 2] * C[2]);
    out->width = p->width;
    out->height = p->height;
    out->fx = out->fy = p->focal_px;
    out->cx = (p->width - 1) / 2.0;
    out->cy = (p->height - 1) / 2.0;
    memcpy(out->dist, p->dist, sizeof out->dist);
    return calib_file_validate(out, "camera", err);
}

/* What the small and the bench scenes share: 25x40 mm bases in two ranks, 16 mm tags 9 mm ahead of the centre. */
static void gen_params_common(ds_gen_params *g)
{
    memset(g, 0, sizeof *g);
    g->seed = 1;
    g->ranks = 2;
    g->base_width = 25, g->base_depth = 40;
    g->tag_size = 16, g->tag_height = 4, g->tag_forward = 9, g->gap_mm = 0.5;
    g->first_tag_id = 10;
}

void ds_gen_params_small(ds_gen_params *g)
{
    gen_params_common(g);
    g->board_width = 700, g->board_depth = 500;
    g->units = 4, g->files = 3;
    g->board_tag_size = 30;
    g->camera = (ds_camera_params){1280, 960, 1500, 1000, 10, 30, {350, 250}, {-0.10, 0.04, 0.0004, -0.0003, 0}};
}

void ds_gen_params_bench(ds_gen_params *g)
{
    gen_params_common(g);
    g->board_width = 1500, g->board_depth = 1100;
    g->units = 25, g->files = 5;
    g->board_tag_size = 40;
    /* 16 mm at 1.4 m with f = 3150 px is 36 px. */
    g->camera = (ds_camera_params){4056, 3040, 3150, 1400, 8, 60, {750, 550}, {-0.12, 0.05, 0.0005, -0.0003, 0}};
}

/* The generator's layout: one cell of a grid over the board per unit, and the random state. */
typedef struct gen_layout {
    const ds_gen_params *g;
    uint64_t st;
    double pw, pd;     /* base pitch across and along */
    double diag;       /* a unit's diagonal */
    int cols;
    double margin, cw, cd;
    int tag;           /* the next tag id */
} gen_layout;

/* Unit ui, in the roster and in the snapshot: placed at random in its cell,
 * at a random heading, each base a little off its ideal slot. -1 when out of memory. */
static int add_generated_unit(ds_scene *s, gen_layout *L, int ui, base_error *err)
{
    const ds_gen_params *g = L->g;
    roster_file *r = s->roster;
    roster_unit *u = &r->units[r->n_units++];
    snprintf(u->id, sizeof u->id, "unit-%d", ui + 1);
    snprintf(u->side, sizeof u->side, "%s", ui % 2 ? "blue" : "red");
    u->base_width = g->base_width, u->base_depth = g->base_depth;
    u->advance_rate = base_in_to_mm(5), u->march_rate = base_in_to_mm(10), u->mobility = NAN;
    u->files = g->files;
    u->mount = (roster_tag_mount){base_v2(g->tag_forward, 0), 0, g->tag_height, g->tag_size};
    u->first_model = r->n_models;
    rules_unit *su = rules_snapshot_add_unit(s->snapshot, u->id, u->side);
    if (!su)
        return base_error_set(err, "out of memory");
    su->base_width = u->base_width, su->base_depth = u->base_depth;
    su->advance_rate = u->advance_rate, su->march_rate = u->march_rate, su->mobility = u->mobility;
    const double slack_x = fmax(0, (L->cw - L->diag) / 2 * 0.8), slack_y = fmax(0, (L->cd - L->diag) / 2 * 0.8);
    const base_vec2 centre = base_v2(L->margin + L->cw * (ui % L->cols + 0.5) + (frand(&L->st) * 2 - 1) * slack_x,
                                     L->margin + L->cd * (ui / L->cols + 0.5) + (frand(&L->st) * 2 - 1) * slack_y);
    const double th = frand(&L->st) * 2 * BASE_PI;
    const base_vec2 fwd = base_v2_dir(th), right = base_v2(sin(th), -cos(th));
    for (int k = 0; k < g->ranks; k++)
        for (int f = 0; f < g->files; f++) {
            roster_model *m = &r->models[r->n_models++];
            snprintf(m->id, sizeof m->id, "%.40s-%d", u->id, (int)(u->n_models + 1) % 100000);
            m->tag_id = L->tag++;
            m->unit = (size_t)ui;
            m->file = f, m->rank = k;
            u->n_models++;
            /* A hand-placed base is a little off its ideal slot. */
            base_vec2 pos = base_v2_add(centre, base_v2_add(base_v2_scale(right, (f - (g->files - 1) / 2.0) * L->pw),
                                                            base_v2_scale(fwd, -(k - (g->ranks - 1) / 2.0) * L->pd)));
            pos = base_v2_add(pos, base_v2((frand(&L->st) - 0.5) * 0.6, (frand(&L->st) - 0.5) * 0.6));
            double facing = base_angle_wrap(th + (frand(&L->st) - 0.5) * base_deg_to_rad(1.0));
            if (!rules_unit_add_model(su, m->id, pos, facing))
                return base_error_set(err, "out of memory");
        }
    return 0;
}

ds_scene *ds_scene_generate(const ds_gen_params *g, base_error *err)
{
    ds_scene *s = calloc(1, sizeof *s);
    roster_file *r = calloc(1, sizeof *r);
    if (!s || !r) {
        free(s);
        free(r);
        base_error_set(err, "out of memory");
        return NULL;
    }
    s->roster = r;
    ds_render_params_default(&s->render);
    s->render.seed = g->seed;
    if (ds_camera_make(&g->camera, &s->calib, err) < 0)
        goto fail;
    strcpy(r->family, "tag36h11");
    r->board_width = g->board_width, r->board_depth = g->board_depth;
    const size_t nm = (size_t)g->units * g->files * g->ranks;
    r->units = calloc((size_t)g->units, sizeof *r->units);
    r->models = calloc(nm, sizeof *r->models);
    r->board_tags = calloc(4, sizeof *r->board_tags);
    s->snapshot = rules_snapshot_new(g->board_width, g->board_depth);
    if (!r->units || !r->models || !r->board_tags || !s->snapshot) {
        base_error_set(err, "out of memory");
        goto fail;
    }
    if (g->board_tag_size > 0) {
        double in = g->board_tag_size;
        double xy[4][2] = {{in, in}, {g->board_width - in, in}, {g->board_width - in, g->board_depth - in},
                           {in, g->board_depth - in}};
        for (int i = 0; i < 4; i++)
            r->board_tags[r->n_board_tags++] = (roster_board_tag){i, xy[i][0], xy[i][1], 0, 0, g->board_tag_size};
    }
    gen_layout L = {.g = g, .st = g->seed * 0x2545F4914F6CDD1Dull + 3, .tag = g->first_tag_id};
    L.pw = g->base_width + g->gap_mm, L.pd = g->base_depth + g->gap_mm;
    L.diag = ds_hypot(g->files * L.pw, g->ranks * L.pd);
    L.cols = (int)ceil(sqrt(g->units * g->board_width / g->board_depth));
    int rows = (g->units + L.cols - 1) / L.cols;
    L.margin = g->board_tag_size > 0 ? 2.2 * g->board_tag_size : 0;
    L.cw = (g->board_width - 2 * L.margin) / L.cols, L.cd = (g->board_depth - 2 * L.margin) / rows;
    for (int ui = 0; ui < g->units; ui++)
        if (add_generated_unit(s, &L, ui, err) < 0)
            goto fail;
    return s;
fail:
    ds_scene_free(s);
    return NULL;
}

void ds_scene_free(ds_scene *s)
{
    if (!s)
        return;
    rules_snapshot_free(s->snapshot);
    roster_free(s->roster);
    free(s);
}

/* The keys each object of a scene may hold (base_fields_known). A new
 * field is one more key here and a line in docs/formats.md. */
static const char *const scene_keys[] = {"format", "version", "snapshot", "roster", "calibration", "camera", "render",
                                         NULL};
static const char *const camera_keys[] = {"image_size", "focal_px",  "height_mm",  "tilt_deg",
                                          "tilt_dir_deg", "target_mm", "distortion", NULL};
static const char *const render_keys[] = {"seed",          "supersample",    "figures",         "figure_height_mm",
                                          "spear_fraction", "banner_fraction", "hands",           "textures",
                                          "light_gradient", "vignetting",      "blur_sigma_px",   "noise_sigma",
                                          "jpeg_quality",   "style",           "miniatures",      NULL};

/* A member that is either an inline object or a file name relative to the scene's folder. */
static cJSON *member(const cJSON *root, const char *key, const char *scene_path, unsigned flags, char *name,
                     size_t cap, base_error *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!it)
        return NULL;
    if (cJSON_IsObject(it)) {
        snprintf(name, cap, "%s: %s", scene_path, key);
        return cJSON_Duplicate(it, 1);
    }
    if (!cJSON_IsString(it)) {
        base_error_set(err, "%s: %s: expected an object or a file name", scene_path, key);
        return NULL;
    }
    if (flags & DS_SCENE_INLINE_ONLY) {
        base_error_set(err, "%s: %s: expected an object here (file names are not followed)", scene_path, key);
        return NULL;
    }
    const char *slash = strrchr(scene_path, '/');
    int n = it->valuestring[0] == '/' || !slash
                ? snprintf(name, cap, "%s", it->valuestring)
                : snprintf(name, cap, "%.*s/%s", (int)(slash - scene_path), scene_path, it->valuestring);
    if (n < 0 || (size_t)n >= cap) { /* never cut: a cut path can name another file that exists */
        base_error_setc(err, BASE_E_TOO_LARGE, "%s: %s: the path is over %zu bytes", scene_path, key, cap - 1);
        return NULL;
    }
    return base_json_parse_file(name, err);
}

static int read_render(const cJSON *o, const char *name, ds_render_params *p, base_error *err)
{
    double seed = p->seed, ss = p->supersample, fig = p->figures, hands = p->hands, tex = p->textures,
           jq = p->effects.jpeg_quality;
    double fh[2] = {p->figure_min_mm, p->figure_max_mm};
    const char *w = "render";
    if (base_fields_known(o, w, render_keys, err) < 0 ||
        base_fields_number(o, "seed", w, false, 0, 4294967295.0, &seed, err) < 0 ||
        base_fields_number(o, "supersample", w, false, 1, 4, &ss, err) < 0 ||
        base_fields_number(o, "figures", w, false, 0, 1, &fig, err) < 0 ||
        base_json_numbers(o, "figure_height_mm", w, false, fh, 2, err) < 0 ||
        base_fields_number(o, "spear_fraction", w, false, 0, 1, &p->spear_fraction, err) < 0 ||
        base_fields_number(o, "banner_fraction", w, false, 0, 1, &p->banner_fraction, err) < 0 ||
        base_fields_number(o, "hands", w, false, 0, 10, &hands, err) < 0 ||
        base_fields_number(o, "textures", w, false, 0, 1, &tex, err) < 0 ||
        base_fields_number(o, "light_gradient", w, false, 0, 1, &p->effects.light_gradient, err) < 0 ||
        base_fields_number(o, "vignetting", w, false, 0, 1, &p->effects.vignetting, err) < 0 ||
        base_fields_number(o, "blur_sigma_px", w, false, 0, 50, &p->effects.blur_sigma_px, err) < 0 ||
        base_fields_number(o, "noise_sigma", w, false, 0, 100, &p->effects.noise_sigma, err) < 0 ||
        base_fields_number(o, "jpeg_quality", w, false, 0, 100, &jq, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    /* The real style (colour, 3D figures, the sensor's chain at its defaults) and figures standing as real
     * miniatures do: what the guide's pictures of marked bases show. */
    const cJSON *style = cJSON_GetObjectItemCaseSensitive(o, "style");
    double minis = p->miniatures;
    if (style && (!cJSON_IsString(style) || (strcmp(style->valuestring, "classic") && strcmp(style->valuestring, "real"))))
        return base_error_set(err, "%s: render.style: expected \"classic\" or \"real\"", name);
    if (base_fields_number(o, "miniatures", w, false, 0, 1, &minis, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    if (style)
        p->style = strcmp(style->valuestring, "real") == 0 ? DS_STYLE_REAL : DS_STYLE_CLASSIC;
    p->miniatures = minis != 0;
    if (seed != floor(seed) || ss != floor(ss) || hands != floor(hands) || jq != floor(jq))
        return base_error_set(err, "%s: render: seed, supersample, hands and jpeg_quality are whole numbers", name);
    if (!(fh[0] >= 0 && fh[1] >= fh[0] && fh[1] <= 200))
        return base_error_set(err, "%s: render.figure_height_mm: [min, max] with 0 <= min <= max <= 200", name);
    p->seed = (uint32_t)seed, p->supersample = (int)ss, p->figures = fig != 0, p->hands = (int)hands;
    p->textures = tex != 0, p->effects.jpeg_quality = (int)jq;
    p->figure_min_mm = fh[0], p->figure_max_mm = fh[1];
    return 0;
}

static int read_camera(const cJSON *o, const char *name, calib_file *c, base_error *err)
{
    ds_camera_params p = {0};
    double size[2], target[2];
    const char *w = "camera";
    const double turn = BASE_FIELDS_MAX_ANGLE_DEG, place = BASE_FIELDS_MAX_PLACE_MM;
    if (base_fields_known(o, w, camera_keys, err) < 0 ||
        base_json_numbers(o, "image_size", w, true, size, 2, err) < 0 ||
        base_fields_number(o, "focal_px", w, true, 1, 1e6, &p.focal_px, err) < 0 ||
        base_fields_number(o, "height_mm", w, true, 1, place, &p.height_mm, err) < 0 ||
        base_fields_number(o, "tilt_deg", w, false, -45, 45, &p.tilt_deg, err) < 0 ||
        base_fields_number(o, "tilt_dir_deg", w, false, -turn, turn, &p.tilt_dir_deg, err) < 0 ||
        base_json_numbers(o, "target_mm", w, true, target, 2, err) < 0 ||
        base_json_numbers(o, "distortion", w, false, p.dist, 5, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    if (!(size[0] >= 16 && size[1] >= 16 && size[0] <= 20000 && size[1] <= 20000) || size[0] != floor(size[0]) ||
        size[1] != floor(size[1]))
        return base_error_set(err, "%s: camera.image_size: whole numbers, 16..20000 px", name);
    if (!(fabs(target[0]) <= place && fabs(target[1]) <= place))
        return base_error_set(err, "%s: camera.target_mm: each within %g mm", name, place);
    for (int i = 0; i < 5; i++)
        if (!(fabs(p.dist[i]) <= 10))
            return base_error_set(err, "%s: camera.distortion[%d]: %g is out of range (-10 to 10)", name, i, p.dist[i]);
    p.width = (int)size[0], p.height = (int)size[1];
    p.target[0] = target[0], p.target[1] = target[1];
    if (ds_camera_make(&p, c, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    return 0;
}

ds_scene *ds_scene_load(const char *path, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return NULL;
    ds_scene *s = ds_scene_from_json(root, path, 0, err);
    cJSON_Delete(root);
    return s;
}

ds_scene *ds_scene_from_json(const cJSON *root, const char *path, unsigned flags, base_error *err)
{
    cJSON *js = NULL, *jr = NULL, *jc = NULL;
    ds_scene *s = calloc(1, sizeof *s);
    char fmt[64] = "", name[1024];
    int version = 0;
    if (!s) {
        base_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    ds_render_params_default(&s->render);
    if (!cJSON_IsObject(root)) {
        base_error_set(err, "%s: expected a JSON object", path);
        goto fail;
    }
    if (base_fields_known(root, "", scene_keys, err) < 0 ||
        base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0 ||
        base_json_int(root, "version", "", true, &version, err) < 0) {
        base_error_prefix(err, path);
        goto fail;
    }
    if (strcmp(fmt, "tableref.scene") != 0 || version != 1) {
        base_error_set(err, "%s: format/version: expected \"tableref.scene\" version 1", path);
        goto fail;
    }
    if (!(js = member(root, "snapshot", path, flags, name, sizeof name, err))) {
        if (!cJSON_GetObjectItemCaseSensitive(root, "snapshot"))
            base_error_set(err, "%s: snapshot: missing", path);
        goto fail;
    }
    if (!(s->snapshot = rules_json_to_snapshot(js, name, err)))
        goto fail;
    if (!(jr = member(root, "roster", path, flags, name, sizeof name, err))) {
        if (!cJSON_GetObjectItemCaseSensitive(root, "roster"))
            base_error_set(err, "%s: roster: missing", path);
        goto fail;
    }
    if (!(s->roster = roster_from_json(jr, name, err)))
        goto fail;
    if (cJSON_GetObjectItemCaseSensitive(root, "calibration")) {
        if (!(jc = member(root, "calibration", path, flags, name, sizeof name, err)) ||
            calib_file_from_json(jc, name, &s->calib, err) < 0)
            goto fail;
    } else {
        const cJSON *cam = base_json_object(root, "camera", "", true, err);
        if (!cam) {
            base_error_set(err, "%s: camera: missing (or give \"calibration\")", path);
            goto fail;
        }
        if (read_camera(cam, path, &s->calib, err) < 0)
            goto fail;
    }
    /* An inline section was read as a copy: its checks count for the scene's own. */
    base_fields_checked_as(js, cJSON_GetObjectItemCaseSensitive(root, "snapshot"));
    base_fields_checked_as(jr, cJSON_GetObjectItemCaseSensitive(root, "roster"));
    base_fields_checked_as(jc, cJSON_GetObjectItemCaseSensitive(root, "calibration"));
    const cJSON *rp = cJSON_GetObjectItemCaseSensitive(root, "render");
    if ((rp && read_render(rp, path, &s->render, err) < 0) || base_fields_all_checked(root, path, err) < 0)
        goto fail;
    cJSON_Delete(js);
    cJSON_Delete(jr);
    cJSON_Delete(jc);
    return s;
fail:
    cJSON_Delete(js);
    cJSON_Delete(jr);
    cJSON_Delete(jc);
    ds_scene_free(s);
    return NULL;
}
