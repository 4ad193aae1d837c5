#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "bench_cores.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vis_detect.h"

int bench_cores_pin(int n, char *cpus, size_t cap, base_error *err)
{
    cpu_set_t allowed, use;
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        return base_error_set(err, "--cores: cannot read the CPUs this process may use");
    CPU_ZERO(&use);
    size_t len = 0;
    int taken = 0;
    if (cap)
        cpus[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && taken < n; c++) {
        if (!CPU_ISSET(c, &allowed))
            continue;
        CPU_SET(c, &use);
        taken++;
        if (len < cap) {
            int w = snprintf(cpus + len, cap - len, "%s%d", len ? "," : "", c);
            len += w > 0 ? (size_t)w : 0;
        }
    }
    if (taken < n)
        return base_error_set(err, "--cores %d: this process may use only %d CPU(s)", n, taken);
    if (sched_setaffinity(0, sizeof use, &use) < 0)
        return base_error_set(err, "--cores %d: the kernel refused to pin the process", n);
    vis_detector_set_threads(n);
    return 0;
}

static double ms_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double bench_cpu_ms(void) { return ms_of(CLOCK_PROCESS_CPUTIME_ID); }

double bench_wall_ms(void) { return ms_of(CLOCK_MONOTONIC); }
