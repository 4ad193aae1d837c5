/* The video row: any other file, read through FFmpeg (cap_video.h, cap_rows.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base_file.h"
#include "cap_rows.h"
#include "cap_video.h"

typedef struct video_source {
    cap_video *video;
    long next, frame_count;
    base_image *image, *gray;
} video_source;

static int claims(const char *source)
{
    struct stat st;
    return stat(source, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* Copies a view the decoder owns (valid until its next read) into *dst. */
static int copy_view(const base_view *v, base_image **dst, base_error *err)
{
    return base_image_assign(dst, v->width, v->height, v->channels, v->data, v->stride, err);
}

/* A video frame: the colour picture for showing, the decoder's luma for detection. */
static int video_read(void *self, cap_backend_frame *f, base_error *err)
{
    video_source *s = self;
    base_view gray, bgr;
    int r = cap_video_read(s->video, &gray, &bgr, err);
    if (r < 0)
        return -1;
    if (r == 0) {
        /* The container promised more: the file was cut short. FFmpeg's
         * count is an estimate for some formats, so allow one frame. */
        if (s->frame_count > 0 && s->next < s->frame_count - 1)
            return base_error_set(err, "the video ends at frame %ld of %ld (file truncated?)", s->next,
                                  s->frame_count);
        return 0;
    }
    if (copy_view(&bgr, &s->image, err) < 0 || copy_view(&gray, &s->gray, err) < 0)
        return -1;
    s->next++;
    f->image = s->image;
    f->gray = s->gray;
    return 1;
}

static void video_close(void *self)
{
    video_source *s = self;
    cap_video_free(s->video);
    base_image_free(s->image);
    base_image_free(s->gray);
    free(s);
}

static int open_video(const char *path, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    video_source *s = calloc(1, sizeof *s);
    if (!s)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    if (!(s->video = cap_video_open(path, CAP_VIDEO_GRAY | CAP_VIDEO_BGR, err))) {
        free(s);
        return -1;
    }
    base_file_note_input(path); /* an input: a recording never lands on it */
    s->frame_count = cap_video_frame_count(s->video);
    out->self = s;
    out->read = video_read;
    out->close = video_close;
    out->fps = cap_video_fps(s->video);
    if (out->fps <= 0)
        out->fps = cfg->fps > 0 ? cfg->fps : 25;
    out->frame_count = s->frame_count;
    snprintf(out->desc, sizeof out->desc, "video file %s (%ld frames at %.3g fps)", path, out->frame_count,
             out->fps);
    return 0;
}

const cap_row cap_row_video = {
    .name = "video",
    .claims = claims,
    .usage = "FILE",
    .about = "a video file, through FFmpeg (timestamps from its frame rate)",
    .live = CAP_RECORDING,
    .arg = CAP_ARG_PATH,
    .options = CAP_OPT_FPS,
    .kind = CAP_SOURCE_FILE,
    .open = open_video,
};
