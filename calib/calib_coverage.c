#include "calib_coverage.h"

#include <string.h>

void calib_coverage_init(calib_coverage *c, int width, int height, int cols, int rows)
{
    memset(c, 0, sizeof *c);
    c->width = width > 0 ? width : 1;
    c->height = height > 0 ? height : 1;
    c->cols = cols < 1 ? 1 : cols > CALIB_COVERAGE_MAX ? CALIB_COVERAGE_MAX : cols;
    c->rows = rows < 1 ? 1 : rows > CALIB_COVERAGE_MAX ? CALIB_COVERAGE_MAX : rows;
}

int calib_coverage_add(calib_coverage *c, const double *img_px, int n)
{
    int seen[CALIB_COVERAGE_MAX][CALIB_COVERAGE_MAX] = {{0}}, fresh = 0;
    for (int i = 0; i < n; i++) {
        const double x = img_px[2 * i], y = img_px[2 * i + 1];
        if (!(x >= 0 && y >= 0 && x < c->width && y < c->height))
            continue;
        seen[(int)(y * c->rows / c->height)][(int)(x * c->cols / c->width)] = 1;
    }
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols; k++)
            if (seen[r][k]) {
                fresh += c->hits[r][k] == 0;
                c->hits[r][k]++;
            }
    c->stills++;
    return fresh;
}

int calib_coverage_covered(const calib_coverage *c)
{
    int n = 0;
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols; k++)
            n += c->hits[r][k] > 0;
    return n;
}

/* "top", "upper middle", ... for row r of n; "left", "centre left", ... for column k of n. */
static const char *row_word(int r, int n)
{
    if (r == 0)
        return "top";
    if (r == n - 1)
        return "bottom";
    return n == 3 ? "middle" : r < n / 2 ? "upper middle" : "lower middle";
}

static const char *col_word(int k, int n)
{
    if (k == 0)
        return "left";
    if (k == n - 1)
        return "right";
    return n == 3 ? "centre" : k < n / 2 ? "centre left" : "centre right";
}

const char *calib_coverage_missing(const calib_coverage *c, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols; k++) {
            if (c->hits[r][k])
                continue;
            int w = snprintf(buf + used, cap - used, "%s%s %s", used ? ", " : "", row_word(r, c->rows),
                             col_word(k, c->cols));
            if (w < 0 || (size_t)w >= cap - used)
                return buf;
            used += (size_t)w;
        }
    return buf;
}

void calib_coverage_print(const calib_coverage *c, FILE *out)
{
    for (int r = 0; r < c->rows; r++) {
        fputs("    |", out);
        for (int k = 0; k < c->cols; k++)
            fputs(c->hits[r][k] ? "#|" : ".|", out);
        fputc('\n', out);
    }
}
