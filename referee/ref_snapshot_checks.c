/* The set-up's checks on a reading (ref_snapshot.h): the parts of a reading (the *_parts.h headers) handed on. */
#include <string.h>

#include "ref_check_parts.h"
#include "ref_proj_parts.h"
#include "ref_table_parts.h"
#include "ref_warnings.h"
#include "ref_roster_fit.h"
#include "ref_snapshot_int.h"

void ref_snapshot_check(const ref_setup *s, const ref_snapshot *f, ref_checks *out)
{
    const ref_check_names names = {f->path, s->calib_path, s->roster_path};
    const base_view im = base_image_view(f->image);
    ref_check_parts(s->det, &names, &im, f->seen->read.tags.items, f->seen->read.tags.n, &f->seen->read.report, out);
    ref_check_result fit;
    ref_roster_fit(s, f->snap, &f->seen->read.report, f->path, &fit);
    ref_checks_set(out, &fit, f->path);
}

int ref_snapshot_table_check(const ref_setup *s, const ref_snapshot *f, const base_view *frame, ref_table_check *out)
{
    const ref_check_names names = {f->path, s->calib_path, s->roster_path};
    const base_view im = frame ? *frame : base_image_view(f->image);
    if (ref_table_check_parts(s->det, &names, &im, f->seen->read.tags.items, f->seen->read.tags.n,
                              &f->seen->read.report, f->snap, out) < 0)
        return -1;
    for (size_t i = 0; i < out->n_units; i++)
        for (size_t k = 0; k < s->roster->n_units; k++)
            if (strcmp(s->roster->units[k].id, out->units[i].id) == 0)
                out->units[i].roster = ref_setup_roster_of(s, k);
    ref_check_result fit;
    ref_roster_fit(s, f->snap, &f->seen->read.report, f->path, &fit);
    ref_checks_set(&out->checks, &fit, f->path);
    ref_table_check_decide(out);
    return 0;
}

int ref_snapshot_proj_check(const ref_setup *s, const ref_snapshot *f, const calib_file *c, const ref_proj_marks *m,
                            const calib_loop *loop, double latency_ms, int extra_frames, const char *calib_name,
                            ref_proj_result *out, base_error *err)
{
    vis_camera cam;
    ref_proj_camera(s->det, f->seen->read.tags.items, f->seen->read.tags.n, &cam);
    return ref_proj_run(&cam, &c->projector, m, loop, latency_ms, extra_frames, calib_name, out, err);
}

size_t ref_snapshot_mark_duplicates(const ref_setup *s, const ref_snapshot *f, const char *picture, rules_report *r,
                                    FILE *warn, const char *prog)
{
    return ref_check_mark_duplicates(s->roster, picture, &f->seen->read.report, r, warn, prog);
}
