/* ov_output: every picture and document the overlay writes goes through base_file's writer: a
 * temporary beside the target renamed over it, never through a link, never onto an input. */
#include <cairo.h>

#include "base_file.h"
#include "ov_internal.h"

cairo_status_t ov_output_write(void *writer, const unsigned char *data, unsigned int len)
{
    return base_file_writer_write(writer, data, len) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int ov_output_png(cairo_surface_t *img, const char *path, base_error *err)
{
    base_file_writer *w = base_file_writer_open(path, "PNG", err);
    if (!w)
        return -1;
    cairo_status_t st = cairo_surface_write_to_png_stream(img, ov_output_write, w);
    if (st != CAIRO_STATUS_SUCCESS) {
        base_file_writer_abort(w);
        return base_error_setc(err, BASE_E_IO, "%s: cannot write PNG: %s", path, cairo_status_to_string(st));
    }
    return base_file_writer_commit(w, err);
}
