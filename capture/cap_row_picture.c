/* The picture row: one .jpg/.jpeg/.png, a sequence of one frame (cap_rows.h). */
#include <sys/stat.h>

#include "cap_images.h"

static int claims(const char *source)
{
    struct stat st;
    return stat(source, &st) == 0 && !S_ISDIR(st.st_mode) && cap_images_is_picture_name(source);
}

static int open_picture(const char *path, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    cap_images *s = cap_images_new(err);
    if (!s)
        return -1;
    if (cap_images_add(s, path, err) < 0) {
        cap_images_free(s);
        return -1;
    }
    return cap_images_backend(s, path, cfg, out);
}

const cap_row cap_row_picture = {
    .name = "picture",
    .claims = claims,
    .usage = "FILE.jpg",
    .about = "one picture (.jpg, .jpeg or .png): a sequence of one frame",
    .live = CAP_RECORDING,
    .arg = CAP_ARG_PATH,
    .options = CAP_OPT_FPS,
    .kind = CAP_SOURCE_IMAGES,
    .open = open_picture,
};
