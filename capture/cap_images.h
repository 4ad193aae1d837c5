/*
 * cap_images: a list of pictures read one per frame, the opened source of
 * the picture, folder and pattern rows (cap_row_picture.c,
 * cap_row_folder.c, cap_row_pattern.c). Internal to capture/.
 *
 * How to use (in a row's open):
 *   cap_images *s = cap_images_new(err);
 *   if (!s || cap_images_add(s, "frames/0001.jpg", err) < 0 ...) ...
 *   cap_images_sort(s);                        // name order (zero-padded names are frame order)
 *   return cap_images_backend(s, source, cfg, out);   // *out owns s from here
 * Each read loads the next picture through media/'s checked loader: one cut short or gone is a
 * camera dying mid-write (-1), one of a size no camera gives bad input (-2).
 */
#ifndef CAP_IMAGES_H
#define CAP_IMAGES_H

#include "base_error.h"
#include "cap_rows.h"

typedef struct cap_images cap_images;

cap_images *cap_images_new(base_error *err);
int cap_images_add(cap_images *s, const char *path, base_error *err);
size_t cap_images_count(const cap_images *s);
void cap_images_sort(cap_images *s);
void cap_images_free(cap_images *s);
/* *out reads the pictures (s is then its own) at cfg->fps (5 when not above 0), described as "image sequence
 * SOURCE (N frames at F fps)". Returns 0. */
int cap_images_backend(cap_images *s, const char *source, const cap_source_config *cfg, cap_backend *out);
/* .jpg, .jpeg or .png, any case. */
int cap_images_is_picture_name(const char *name);

#endif
