/* cap_source: one interface over the rows of the table of sources (cap_source.h, cap_rows.h). */
#include "cap_source.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_rows.h"

struct cap_source {
    const cap_row *row;
    cap_backend b;
    long next;
    double t0_ms;        /* clock at the first live frame */
    base_image *gray;    /* the current frame's gray copy when it is colour and brings none */
};

cap_source *cap_source_open(const char *source, const cap_source_config *cfg, base_error *err)
{
    cap_source_config def;
    if (!cfg) {
        cap_source_config_default(&def);
        cfg = &def;
    }
    const cap_row *row = cap_rows_find(source);
    if (!row) { /* no row takes it: a path that is not there */
        struct stat st;
        int e = stat(source, &st) < 0 ? errno : ENOENT;
        base_error_set(err, "cannot open %s: %s", source, strerror(e));
        return NULL;
    }
    cap_source *c = calloc(1, sizeof *c);
    if (!c) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    c->row = row;
    c->b.frame_count = -1;
    if (row->open(source, cfg, &c->b, err) < 0) {
        /* A camera that cannot be opened: say how to find the right one (no opener says it itself). */
        if (row->list && err) {
            err->code = BASE_E_DEVICE;
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n, " (%s)", CAP_SOURCE_LIST_HINT);
        }
        free(c);
        return NULL;
    }
    return c;
}

/* ---- frames a caller makes: the one source with no row in the table (it has no name to find) ---- */

typedef struct callback_source {
    cap_source_callbacks cb;
    long next;
    base_image *image;
} callback_source;

static int callback_read(void *self, cap_backend_frame *f, base_error *err)
{
    callback_source *s = self;
    const base_image *img = NULL;
    int r = s->cb.read(s->cb.ctx, s->next, &img, err);
    if (r <= 0)
        return r;
    if (base_image_assign(&s->image, img->width, img->height, img->channels, img->data, img->stride, err) < 0)
        return -1;
    s->next++;
    f->image = s->image;
    return 1;
}

static void callback_close(void *self)
{
    callback_source *s = self;
    base_image_free(s->image);
    free(s);
}

static const cap_row callback_row = {
    .name = "callbacks", .usage = "(a program's frames)", .about = "frames a program makes as it goes",
    .live = CAP_SIMULATION, .arg = CAP_ARG_NAME, .kind = CAP_SOURCE_CALLBACK,
};

cap_source *cap_source_open_callbacks(const cap_source_callbacks *cb, base_error *err)
{
    if (!cb->read || !(cb->fps > 0)) {
        base_error_setc(err, BASE_E_INVALID, "callback source: needs a read function and a frame rate above 0");
        return NULL;
    }
    cap_source *c = calloc(1, sizeof *c);
    callback_source *s = calloc(1, sizeof *s);
    if (!c || !s) {
        free(c);
        free(s);
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    s->cb = *cb;
    c->row = &callback_row;
    c->b = (cap_backend){.self = s, .read = callback_read, .close = callback_close, .fps = cb->fps,
                         .frame_count = cb->frame_count};
    snprintf(c->b.desc, sizeof c->b.desc, "%s", cb->describe ? cb->describe : "frames made by the program");
    return c;
}

/* ---- reading ---- */

/* Keeps c->gray a gray version of a colour frame that brings none of its own. */
static const base_image *gray_of(cap_source *c, const cap_backend_frame *f, base_error *err)
{
    if (f->image->channels == 1)
        return f->image;
    if (f->gray)
        return f->gray;
    base_image_free(c->gray);
    c->gray = base_image_to_gray(f->image);
    if (!c->gray)
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return c->gray;
}

int cap_source_read(cap_source *c, cap_frame *out, base_error *err)
{
    cap_backend_frame f = {NULL, NULL, NAN};
    int r = c->b.read(c->b.self, &f, err);
    if (r <= 0)
        return r;
    const base_image *gray = gray_of(c, &f, err);
    if (!gray)
        return -1;
    double t;
    if (c->row->live == CAP_LIVE) { /* the camera's clock, from its first frame */
        if (c->next == 0)
            c->t0_ms = f.clock_ms;
        t = f.clock_ms - c->t0_ms;
    } else { /* a recording is timed by its index, so a replay judges the same as the live game */
        t = c->next * 1000.0 / c->b.fps;
    }
    out->image = f.image;
    out->gray = gray;
    out->index = c->next++;
    out->t_ms = t;
    return 1;
}

cap_source_kind cap_source_kind_of(const cap_source *c) { return c->row->kind; }
bool cap_source_is_live(const cap_source *c) { return c->row->live == CAP_LIVE; }
bool cap_source_is_simulated(const cap_source *c) { return c->row->live == CAP_SIMULATION; }
const cap_row *cap_source_row(const cap_source *c) { return c->row; }
void *cap_source_backend_of(const cap_source *c, const cap_row *row) { return c && c->row == row ? c->b.self : NULL; }
bool cap_source_sees_projector(const cap_source *c) { return c->b.project != NULL; }

void cap_source_project(void *source, const base_image *picture, double t_ms)
{
    cap_source *c = source;
    if (c->b.project)
        c->b.project(c->b.self, picture, t_ms);
}

double cap_source_fps(const cap_source *c) { return c->b.fps; }
long cap_source_frame_count(const cap_source *c) { return c->b.frame_count; }
const char *cap_source_describe(const cap_source *c) { return c->b.desc; }

void cap_source_close(cap_source *c)
{
    if (!c)
        return;
    if (c->b.close)
        c->b.close(c->b.self);
    base_image_free(c->gray);
    free(c);
}

int cap_source_list(cap_source_info *out, int cap, base_error *err)
{
    int n = 0;
    for (size_t i = 0; i < cap_rows_count() && n < cap; i++) {
        const cap_row *r = cap_rows_at(i);
        int k = r->list ? r->list(out + n, cap - n, err) : 0;
        if (k < 0)
            return -1;
        n += k;
    }
    return n;
}
