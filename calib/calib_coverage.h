/*
 * calib_coverage: where in the frame a calibration target has been seen so
 * far, for feedback while the photos are taken. A lens is only calibrated
 * where the target was seen: its corners and edges need views too.
 *
 * How to use:
 *   calib_coverage cov;
 *   calib_coverage_init(&cov, 4056, 3040, 4, 3);        // the frame in 4 x 3 parts
 *   int fresh = calib_coverage_add(&cov, pts.img, pts.n);   // image points (px) of one still
 *   calib_coverage_print(&cov, stdout);                 // a small map, '#' seen, '.' not yet
 *   char left[256]; calib_coverage_missing(&cov, left, sizeof left);   // "top left, bottom right"
 * Plain data, nothing to free.
 */
#ifndef CALIB_COVERAGE_H
#define CALIB_COVERAGE_H

#include <stddef.h>
#include <stdio.h>

#define CALIB_COVERAGE_MAX 8

typedef struct calib_coverage {
    int width, height;       /* frame, px */
    int cols, rows;          /* parts across and down, 1..CALIB_COVERAGE_MAX */
    int hits[CALIB_COVERAGE_MAX][CALIB_COVERAGE_MAX];  /* stills that put a target point in each part */
    int stills;              /* stills added */
} calib_coverage;

void calib_coverage_init(calib_coverage *c, int width, int height, int cols, int rows);
/* Adds one still's target points (x, y pairs in px); returns how many parts it saw for the first time. */
int calib_coverage_add(calib_coverage *c, const double *img_px, int n);
/* Parts seen at least once. */
int calib_coverage_covered(const calib_coverage *c);
/* The parts never seen, in words ("top left, middle right"); "" when all are. */
const char *calib_coverage_missing(const calib_coverage *c, char *buf, size_t cap);
/* The map, one line per row of parts: "|#|#|.|.|". */
void calib_coverage_print(const calib_coverage *c, FILE *out);

#endif
