/*
 * base_view: the one checked door by which a picture file enters tableref.
 * Every command that reads a JPEG or PNG (tags, detect, referee, the three
 * calibrate steps, watch on an image sequence) reads it here, so every
 * command refuses the same pictures with the same message.
 *
 * Before anything is decoded the header is read and the picture refused when
 *   - it is smaller than MEDIA_IMAGE_MIN_SIDE on a side (nothing the detector
 *     can use fits: apriltag itself crashes on pictures under 3 px high),
 *   - a side is over MEDIA_IMAGE_MAX_SIDE, or it has more pixels than the cap
 *     (100 MP by default; `--max-pixels N` raises it): a 0.4 MB PNG can
 *     claim 20000 x 20000 px and would take 4 GB to decode.
 * While decoding, every libjpeg warning is an error (TurboJPEG's
 * stop-on-warning) and so is every libpng error and "benign" error: a
 * truncated or corrupt picture is refused naming the file, never judged
 * half-grey.
 *
 * How to use:
 *   base_error err;
 *   base_image *img = media_image_load("table.jpg", MEDIA_IMAGE_GRAY, &err);
 *   if (!img) { fprintf(stderr, "tableref tags: %s\n", err.msg); return 2; }
 *   ... img->data, img->width, img->height, img->stride ...
 *   base_image_free(img);
 * The messages begin with the file name and say what is wrong:
 *   "one.png: 1 x 1 px is too small: a picture must be at least 10 x 10 px"
 *   "cut.jpg: corrupt or truncated JPEG: Corrupt JPEG data: premature end of data segment"
 *
 * Pixels are returned as stored: an EXIF orientation tag is not applied (a
 * camera over the table is calibrated in its sensor's own frame).
 */
#ifndef MEDIA_IMAGE_READ_H
#define MEDIA_IMAGE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "base_image.h"
#include "base_error.h"

/*
 * Smallest side, px: one tag36h11 with its white border at one pixel per
 * cell is 10 x 10 px (apriltag finds it from 12 x 12 up, with a pixel of
 * margin). Calibration files may not describe a smaller camera either
 * (calib_file.h, CALIB_FILE_MIN_IMAGE_SIDE).
 */
#define MEDIA_IMAGE_MIN_SIDE 10
/* Largest side, px: JPEG's own limit. */
#define MEDIA_IMAGE_MAX_SIDE 65535
/* Default pixel cap: 100 MP (a 12 MP camera frame is 12.3 MP). */
#define MEDIA_IMAGE_DEFAULT_MAX_PIXELS 100000000LL

typedef enum media_image_color {
    MEDIA_IMAGE_AS_STORED = 0, /* gray pictures gray, colour pictures BGR */
    MEDIA_IMAGE_GRAY = 1,      /* 8-bit gray (luma with BT.601 weights, as OpenCV) */
    MEDIA_IMAGE_BGR = 3,       /* 8-bit BGR */
} media_image_color;

/* What the header says, without decoding. */
typedef struct media_image_info {
    int width, height;
    int channels;       /* 1 when stored gray, 3 when colour */
    const char *format; /* "JPEG" or "PNG" */
} media_image_info;

/*
 * The pixel cap of this process (default MEDIA_IMAGE_DEFAULT_MAX_PIXELS). Set
 * once at start-up, before threads (the `--max-pixels N` option every
 * command takes is read in cli/tableref.c). Values < 1 restore the default.
 */
void media_image_set_max_pixels(long long max_pixels);
long long media_image_max_pixels(void);

/* Reads, checks and decodes a JPEG or PNG file under the process's cap. NULL with err on refusal. */
base_image *media_image_load(const char *path, media_image_color color, base_error *err);

/* Why a picture was refused, for callers that act differently on each. */
typedef enum media_image_fault {
    MEDIA_IMAGE_FAULT_NONE = 0,
    MEDIA_IMAGE_FAULT_UNREADABLE, /* cannot open or read the file (gone, no permission, a directory) */
    MEDIA_IMAGE_FAULT_SIZE,       /* a well-formed header with a size refused (too small, over the cap) */
    MEDIA_IMAGE_FAULT_CORRUPT,    /* not a JPEG or PNG, cut short, or damaged */
} media_image_fault;

/* media_image_load telling why it refused (*fault; NONE on success). */
base_image *media_image_read(const char *path, media_image_color color, media_image_fault *fault, base_error *err);

/*
 * The same from memory: `name` starts every message, `max_pixels` is the
 * cap for this call (< 1: the process's cap). The buffer is only read.
 */
base_image *media_image_decode(const uint8_t *buf, size_t len, const char *name, media_image_color color,
                            long long max_pixels, base_error *err);

/* Reads the header only and applies the same size checks. 0, or -1 with err. */
int media_image_probe(const uint8_t *buf, size_t len, const char *name, long long max_pixels, media_image_info *info,
                    base_error *err);

#endif
