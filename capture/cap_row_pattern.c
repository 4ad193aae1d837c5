/* The pattern row: frames/%04d.jpg, from index 0 (or 1) until a file is missing (cap_rows.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_images.h"

static int claims(const char *source) { return strchr(source, '%') != NULL; }

/* The pattern must hold exactly one integer conversion (%d, %04d, ...) and no other '%'. */
static int pattern_ok(const char *p)
{
    const char *q = strchr(p, '%');
    if (!q || strchr(q + 1, '%'))
        return 0;
    q++;
    while (*q >= '0' && *q <= '9')
        q++;
    return *q == 'd';
}

static int open_pattern(const char *pat, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    if (!pattern_ok(pat))
        return base_error_set(err, "%s: an image pattern needs exactly one %%d conversion (e.g. frames/%%04d.jpg)",
                              pat);
    cap_images *s = cap_images_new(err);
    if (!s)
        return -1;
    char path[4096];
    struct stat st;
    long start = 0;
    snprintf(path, sizeof path, pat, 0);
    if (stat(path, &st) < 0)
        start = 1;
    for (long i = start;; i++) {
        snprintf(path, sizeof path, pat, (int)i);
        if (stat(path, &st) < 0)
            break;
        if (cap_images_add(s, path, err) < 0) {
            cap_images_free(s);
            return -1;
        }
    }
    if (cap_images_count(s) == 0) {
        cap_images_free(s);
        return base_error_set(err, "cannot open %s: no file matches (tried index 0 and 1)", pat);
    }
    return cap_images_backend(s, pat, cfg, out);
}

const cap_row cap_row_pattern = {
    .name = "pattern",
    .claims = claims,
    .usage = "frames/%04d.jpg",
    .about = "an image sequence named by a printf pattern, from index 0 (or 1)\n"
             "until a file is missing (timestamps from --fps)",
    .live = CAP_RECORDING,
    .arg = CAP_ARG_PATH,
    .options = CAP_OPT_FPS,
    .kind = CAP_SOURCE_IMAGES,
    .open = open_pattern,
};
