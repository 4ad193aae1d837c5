/* The folder row: every .jpg/.jpeg/.png in a folder, in name order (cap_rows.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_images.h"

static int claims(const char *source)
{
    struct stat st;
    return stat(source, &st) == 0 && S_ISDIR(st.st_mode);
}

static int list_dir(cap_images *s, const char *dir, base_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return base_error_set(err, "cannot open %s: %s", dir, strerror(errno));
    struct dirent *e;
    char path[4096];
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !cap_images_is_picture_name(e->d_name))
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n < 0 || (size_t)n >= sizeof path) /* a cut path could name another picture */
            rc = base_error_setc(err, BASE_E_TOO_LARGE, "%s/%s: the path is over %zu bytes", dir, e->d_name,
                                 sizeof path - 1);
        else
            rc = cap_images_add(s, path, err);
    }
    closedir(d);
    return rc;
}

static int open_folder(const char *dir, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    cap_images *s = cap_images_new(err);
    if (!s)
        return -1;
    if (list_dir(s, dir, err) < 0) {
        cap_images_free(s);
        return -1;
    }
    if (cap_images_count(s) == 0) {
        cap_images_free(s);
        return base_error_set(err, "%s: no .jpg, .jpeg or .png images in this directory", dir);
    }
    /* Zero-padded names sort in frame order. */
    cap_images_sort(s);
    return cap_images_backend(s, dir, cfg, out);
}

const cap_row cap_row_folder = {
    .name = "folder",
    .claims = claims,
    .usage = "DIR",
    .about = "an image sequence: every .jpg, .jpeg and .png in DIR, in name order\n"
             "(timestamps from --fps)",
    .live = CAP_RECORDING,
    .arg = CAP_ARG_PATH,
    .options = CAP_OPT_FPS,
    .kind = CAP_SOURCE_IMAGES,
    .open = open_folder,
};
