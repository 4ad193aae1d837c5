/* cap_images: pictures read one per frame (cap_images.h). */
#include "cap_images.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base_file.h"
#include "media_image_read.h"

struct cap_images {
    char **files;
    size_t n, next;
    base_image *image;
};

cap_images *cap_images_new(base_error *err)
{
    cap_images *s = calloc(1, sizeof *s);
    if (!s)
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return s;
}

int cap_images_add(cap_images *s, const char *path, base_error *err)
{
    base_file_note_input(path); /* a frame the source will read: no output may land on it (base_plan.h) */
    char **f = realloc(s->files, (s->n + 1) * sizeof *f);
    if (!f)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    s->files = f;
    if (!(s->files[s->n] = strdup(path)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    s->n++;
    return 0;
}

size_t cap_images_count(const cap_images *s) { return s->n; }

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void cap_images_sort(cap_images *s) { qsort(s->files, s->n, sizeof *s->files, cmp_str); }

void cap_images_free(cap_images *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->files[i]);
    free(s->files);
    base_image_free(s->image);
    free(s);
}

int cap_images_is_picture_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return 0;
    return strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0 || strcasecmp(dot, ".png") == 0;
}

static int images_read(void *self, cap_backend_frame *f, base_error *err)
{
    cap_images *s = self;
    if (s->next >= s->n)
        return 0;
    media_image_fault fault;
    base_image *img = media_image_read(s->files[s->next], MEDIA_IMAGE_AS_STORED, &fault, err);
    /* A frame cut short or gone is a camera dying mid-write (lost); one of a size no camera gives is bad input. */
    if (!img)
        return fault == MEDIA_IMAGE_FAULT_SIZE ? -2 : -1;
    base_image_free(s->image);
    s->image = img;
    s->next++;
    f->image = img;
    return 1;
}

static void images_close(void *self) { cap_images_free(self); }

int cap_images_backend(cap_images *s, const char *source, const cap_source_config *cfg, cap_backend *out)
{
    out->self = s;
    out->read = images_read;
    out->close = images_close;
    out->fps = cfg->fps > 0 ? cfg->fps : 5;
    out->frame_count = (long)s->n;
    snprintf(out->desc, sizeof out->desc, "image sequence %s (%zu frames at %.3g fps)", source, s->n, out->fps);
    return 0;
}
