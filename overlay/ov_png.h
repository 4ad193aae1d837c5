/*
 * ov_png: Cairo image surfaces to PNG files, fast.
 *
 * cairo_surface_write_to_png compresses at zlib's default level (6) with
 * libpng's adaptive filters; for the referee's 12 MP annotated camera
 * picture that was more than half of the whole run. This writer makes the
 * same file (the same IHDR, the same white bKGD chunk, the same pixels:
 * 8-bit RGB when the surface is opaque, else 8-bit RGBA unpremultiplied as
 * Cairo does) at zlib level 1 with the Sub filter, about six times faster
 * for a file about a fifth larger.
 *
 * How to use:
 *   cairo_surface_flush(img);
 *   if (ov_png_write(img, "camera.png", err) < 0) ... err->msg names the file
 */
#ifndef OV_PNG_H
#define OV_PNG_H

#include <cairo.h>

#include "base_error.h"

/* Writes an ARGB32 or RGB24 image surface; other formats go through Cairo's own writer. */
int ov_png_write(cairo_surface_t *img, const char *path, base_error *err);

#endif
