/* ds_loop_source: the table simulator as capture's `sim:` row (ds_loop_source.h). */
#include "ds_loop_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ds_light.h"

typedef struct sim_source {
    ds_sequence *q;
    calib_file cam;
    ds_loop *loop;
    long next;
    base_image *image;
} sim_source;

static int sim_read(void *self, cap_backend_frame *f, base_error *err)
{
    sim_source *s = self;
    const base_image *img = NULL;
    int r = ds_loop_read(s->loop, s->next, &img, err);
    if (r <= 0)
        return r;
    if (base_image_assign(&s->image, img->width, img->height, img->channels, img->data, img->stride, err) < 0)
        return -1;
    s->next++;
    f->image = s->image;
    return 1;
}

static void sim_project(void *self, const base_image *picture, double t_ms)
{
    ds_loop_project(((sim_source *)self)->loop, picture, t_ms);
}

static void sim_close(void *self)
{
    sim_source *s = self;
    ds_loop_free(s->loop);
    ds_sequence_free(s->q);
    base_image_free(s->image);
    free(s);
}

/* The simulator for SEQ.json with the options' light and frames folder: 0, or -1 (err says why). */
static int sim_start(sim_source *s, const char *seq, const cap_source_config *cfg, ds_loop_params *lp,
                     base_error *err)
{
    double P[3];
    if (!(s->q = ds_sequence_load(seq, err)) || ds_loop_calib(s->q, &s->cam, P, err) < 0)
        return -1;
    ds_loop_params_default(lp);
    ds_loop_params_from_calib(&s->cam, lp);
    lp->ratio = cfg->sim_light >= 0 ? cfg->sim_light : DS_LIGHT_RATIO_DEFAULT;
    lp->save_dir = cfg->sim_frames;
    if (cfg->sim_frames && mkdir(cfg->sim_frames, 0777) < 0 && errno != EEXIST)
        return base_error_setc(err, BASE_E_IO, "%s: cannot create: %s", cfg->sim_frames, strerror(errno));
    s->loop = ds_loop_new(s->q, &s->cam, P, lp, err);
    return s->loop ? 0 : -1;
}

static int sim_open(const char *source, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    const char *seq = source + strlen("sim:");
    sim_source *s = calloc(1, sizeof *s);
    if (!s)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    ds_loop_params lp;
    if (sim_start(s, seq, cfg, &lp, err) < 0) {
        sim_close(s);
        return -1;
    }
    *out = (cap_backend){.self = s, .read = sim_read, .close = sim_close, .project = sim_project,
                         .fps = s->q->fps, .frame_count = ds_sequence_frame_count(s->q)};
    snprintf(out->desc, sizeof out->desc,
             "simulated table %s (%ld frames at %.3g fps, projector at %.1fx the room's light)", seq,
             out->frame_count, out->fps, lp.ratio);
    return 0;
}

const cap_row ds_loop_source_row = {
    .name = "sim",
    .scheme = "sim",
    .usage = "sim:SEQ.json",
    .about = "the closed-loop table simulator (tests, benches, the demo):\n"
             "the game turn SEQ.json (`tableref render-sequence`) rendered frame by\n"
             "frame, lit by what the watch projects (--sim-light); its scene's\n"
             "camera with a simulated projector and its roster are used",
    .live = CAP_SIMULATION,
    .arg = CAP_ARG_PATH,
    .options = CAP_OPT_SIM,
    .flags = CAP_ROW_OWN_SETUP,
    .kind = CAP_SOURCE_CALLBACK,
    .open = sim_open,
};

int ds_loop_source_register(base_error *err) { return cap_rows_register(&ds_loop_source_row, err); }

int ds_loop_source_setup(const cap_source *c, ds_loop_setup *out)
{
    sim_source *s = cap_source_backend_of(c, &ds_loop_source_row);
    if (!s)
        return -1;
    *out = (ds_loop_setup){&s->cam, s->q->scene->roster, s->loop, s->q->scene->snapshot};
    return 0;
}
