#include "bench_vision_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_cores.h"
#include "media.h"
#include "media_image_read.h"

int bv_stages_time_decode(const base_image *gray, const base_image *colour, int quality, int reps, bv_stages *st,
                          base_error *err)
{
    char dir[] = "/tmp/tableref-bench-decode-XXXXXX";
    if (!mkdtemp(dir))
        return base_error_set(err, "cannot create a temporary folder");
    char path[64];
    snprintf(path, sizeof path, "%s/frame.jpg", dir);
    int rc = media_image_save(colour ? colour : gray, path, quality > 0 ? quality : 92, err);
    double best = INFINITY, best_cpu = INFINITY;
    for (int r = 0; rc == 0 && r < (reps > 0 ? reps : 1); r++) {
        const double w0 = bench_wall_ms(), c0 = bench_cpu_ms();
        base_image *im = media_image_load(path, MEDIA_IMAGE_GRAY, err);
        const double w = bench_wall_ms() - w0, c = bench_cpu_ms() - c0;
        if (!im) {
            rc = -1;
            break;
        }
        base_image_free(im);
        if (w < best)
            best = w, best_cpu = c;
    }
    remove(path);
    rmdir(dir);
    if (rc == 0)
        st->decode = best, st->decode_cpu = best_cpu;
    return rc;
}

void bv_stages_take_run(bv_stages *st, const vis_detect_times *t, double whole, double whole_cpu)
{
    st->first = t->first_pass_ms, st->first_cpu = t->first_pass_cpu_ms;
    st->reads = t->reads_ms, st->reads_cpu = t->reads_cpu_ms;
    st->fit = t->fit_ms, st->fit_cpu = t->fit_cpu_ms;
    st->whole = whole, st->whole_cpu = whole_cpu;
    st->frames = 1;
}

void bv_stages_add(bv_stages *sum, const bv_stages *one)
{
    sum->decode += one->decode, sum->decode_cpu += one->decode_cpu;
    sum->first += one->first, sum->first_cpu += one->first_cpu;
    sum->reads += one->reads, sum->reads_cpu += one->reads_cpu;
    sum->fit += one->fit, sum->fit_cpu += one->fit_cpu;
    sum->whole += one->whole, sum->whole_cpu += one->whole_cpu;
    sum->judge += one->judge, sum->judge_cpu += one->judge_cpu;
    sum->frames += one->frames, sum->judged += one->judged;
}

void bv_stages_print(FILE *f, const char *label, const bv_stages *st)
{
    const double n = st->frames > 0 ? st->frames : 1;
    const double rest = st->whole - st->first - st->reads - st->fit;
    const double rest_cpu = st->whole_cpu - st->first_cpu - st->reads_cpu - st->fit_cpu;
    fprintf(f,
            "%s: stages, ms wall/CPU: JPEG decode %.0f/%.0f, first pass %.0f/%.0f, predicted reads %.0f/%.0f, "
            "formation fit %.0f/%.0f, the rest %.0f/%.0f; detection %.0f/%.0f, with the decode %.0f/%.0f",
            label, st->decode / n, st->decode_cpu / n, st->first / n, st->first_cpu / n, st->reads / n,
            st->reads_cpu / n, st->fit / n, st->fit_cpu / n, rest / n, rest_cpu / n, st->whole / n,
            st->whole_cpu / n, (st->decode + st->whole) / n, (st->decode_cpu + st->whole_cpu) / n);
    if (st->judged)
        fprintf(f, "; judging a pair %.1f/%.1f", st->judge / st->judged, st->judge_cpu / st->judged);
    fprintf(f, "\n");
}
