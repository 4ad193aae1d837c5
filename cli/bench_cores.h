/*
 * bench_cores: `--cores N` of the benches (bench vision, bench watch). The
 * process is pinned to N of the CPUs it may use (sched_setaffinity: the
 * threads it makes afterwards inherit the mask) and every tag detector made
 * afterwards runs N threads (vis_detector_set_threads: the referee and the
 * watch a bench runs in-process included), so a figure says what N cores of
 * this machine give. Beside the wall clock, the process's CPU time (every
 * thread's): on a shared machine the wall clock also counts the others'
 * work, the CPU time only this process's.
 *
 * How to use (before the bench makes any thread):
 *   char cpus[64];
 *   if (bench_cores_pin(1, cpus, sizeof cpus, &err) < 0) ... err.msg ...
 *   printf("pinned to CPU %s\n", cpus);
 *   const double c0 = bench_cpu_ms(), w0 = bench_wall_ms();
 *   ... work ...
 *   printf("%.0f ms (%.0f ms of CPU)\n", bench_wall_ms() - w0, bench_cpu_ms() - c0);
 */
#ifndef BENCH_CORES_H
#define BENCH_CORES_H

#include <stddef.h>

#include "base_error.h"

/* Pins the process to the first `n` CPUs it may use and sizes vision's threads to n; `cpus` gets their
 * numbers ("0" or "0,1"). -1 with err when fewer than n CPUs are allowed or the kernel refuses. */
int bench_cores_pin(int n, char *cpus, size_t cap, base_error *err);

/* The process's CPU time (user + system, every thread) and the monotonic wall clock, ms. */
double bench_cpu_ms(void);
double bench_wall_ms(void);

#endif
