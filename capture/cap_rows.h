/*
 * cap_rows: capture's table of sources, one row per kind of source (as
 * curl's table of protocol handlers, libcamera's pipeline handlers). A row
 * says how its sources are written, whether they are live, what follows its
 * scheme (a device name, a path, a URL), which options it reads, how to open
 * one and how to list the devices it has. Everything that takes a source
 * reads the rows: cap_source_open (capture/), the table file's "source"
 * (table/table_file.c: a path is read from the table's folder, a device or
 * a URL kept as written), the watch (watch/watch_source.h), `capture`,
 * `cameras`, `table-check --projector` and the help of each.
 *
 * The built-in rows are capture/meson.build's list `cap_rows`, in the
 * order sources are matched; row NAME is `const cap_row cap_row_NAME`,
 * defined in capture/cap_row_NAME.c with its open. Adding a source is that
 * one file and its word in the list. A layer above capture registers its own
 * rows at its program's start (the table simulator's `sim:`,
 * datasets/ds_loop_source.h), before any source is opened.
 *
 * How a source finds its row: first the rows with a scheme, in table order
 * then registration order: "SCHEME:..." is theirs (and whatever their claims
 * takes, "libcamera" alone); then the rows without one, registered first:
 * the first whose claims takes the source (the URL row any "x://...", then
 * a pattern, a folder, a picture, any other file a video).
 *
 * How to use:
 *   const cap_row *row = cap_rows_find("v4l2:/dev/video0");   // &cap_row_v4l2; NULL: no row takes it
 *   if (row && row->live == CAP_LIVE) ...
 *   const char *arg; cap_arg kind = cap_rows_arg("sim:seq.json", &arg);  // CAP_ARG_PATH, arg "seq.json"
 *   for (size_t i = 0; i < cap_rows_count(); i++) puts(cap_rows_at(i)->usage);
 *   char help[4096]; cap_rows_help(help, sizeof help, "     ");           // "usage  about" lines
 * A row of one's own (a test's, a layer above's):
 *   static int my_open(const char *src, const cap_source_config *cfg, cap_backend *out, base_error *err)
 *   { out->self = ...; out->read = my_read; out->close = my_close; out->fps = 5; ...; return 0; }
 *   static const cap_row my_row = {.name = "mine", .scheme = "mine", .usage = "mine:ARG", .about = "...",
 *                                  .live = CAP_RECORDING, .arg = CAP_ARG_NAME, .open = my_open};
 *   cap_rows_register(&my_row, &err);       // then cap_source_open("mine:x", ...) opens it
 * Registration is not thread-safe: register at start, before any thread opens a source.
 */
#ifndef CAP_ROWS_H
#define CAP_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_image.h"

/* The words a row and its readers share (cap_source.h includes this header). */

/* What a source is, for people and tests; what to do with it is the row's answer (cap_source_is_live). */
typedef enum cap_source_kind {
    CAP_SOURCE_FILE = 0,    /* a video file */
    CAP_SOURCE_IMAGES,      /* a directory, a printf pattern or one still image */
    CAP_SOURCE_V4L2,        /* a V4L2 device */
    CAP_SOURCE_LIBCAMERA,   /* a libcamera camera */
    CAP_SOURCE_CALLBACK,    /* frames a caller makes (the table simulator, datasets/ds_loop.h) */
    CAP_SOURCE_OTHER,       /* a row of its own (cap_source_row says which) */
} cap_source_kind;

typedef struct cap_source_config {
    /* Frame rate of an image sequence (its timestamps are index / fps), and
     * the rate asked of a camera (0: the driver's). Default 5. */
    double fps;
    /* Frame size asked of a camera (0: its default). */
    int width, height;
    /* Longest wait for a camera frame, ms: past it the camera counts as
     * lost. Default 3000 (a 12 MP sensor at night exposes up to ~1 s). */
    int timeout_ms;
    /* A simulated table's (sim:, datasets/ds_loop_source.h): its projector's white against the room's light
     * (< 0: the simulator's default; 0: the projector off), and a folder that gets every frame as NNNNNN.jpg
     * (created; NULL: none). */
    double sim_light;
    const char *sim_frames;
} cap_source_config;

void cap_source_config_default(cap_source_config *c);

/* A camera this machine has, as `tableref cameras` lists it. */
typedef struct cap_source_info {
    char source[64];      /* what --source takes: "libcamera:0", "v4l2:/dev/video0" */
    char name[160];       /* the device's own name: "imx477 /base/soc/i2c0mux/...", "HD Pro Webcam C920 (uvcvideo)" */
    char sizes[256];      /* frame sizes it offers, largest first ("4056x3040 2028x1520"); "" when unknown */
} cap_source_info;

/* The row's is-live answer. */
typedef enum cap_live {
    CAP_LIVE,        /* a camera: frames on its own clock; one not read in time is gone */
    CAP_RECORDING,   /* a recording: frames timed index / fps, replayed as fast as they are read */
    CAP_SIMULATION,  /* a recording a program makes as it goes (a simulator): timed as a recording */
} cap_live;

/* What follows the scheme (or, for rows without one, the whole source). */
typedef enum cap_arg {
    CAP_ARG_NAME,  /* a device's name or number: kept as written */
    CAP_ARG_PATH,  /* a file or folder: a table file reads it from its own folder */
    CAP_ARG_URL,   /* a URL: kept as written, never a path */
} cap_arg;

/* The options of cap_source_config a row reads. */
enum {
    CAP_OPT_FPS = 1,      /* cfg.fps: an image sequence's rate, the rate asked of a camera */
    CAP_OPT_SIZE = 2,     /* cfg.width, cfg.height: the frame size asked of a camera */
    CAP_OPT_TIMEOUT = 4,  /* cfg.timeout_ms: a camera silent this long is lost */
    CAP_OPT_SIM = 8,      /* cfg.sim_light, cfg.sim_frames: a simulated table's */
};

/* What else a row's sources bring. */
enum {
    /* The source names a whole simulated table: its camera's calibration and its roster come with it
     * (datasets/ds_loop_source.h says how to take them), not from --calib and --roster. */
    CAP_ROW_OWN_SETUP = 1,
};

/* One frame as a row's source gives it. */
typedef struct cap_backend_frame {
    const base_image *image;  /* gray or BGR, the source's, valid until its next read */
    const base_image *gray;   /* its own gray version (a video's luma), or NULL: made from image */
    double clock_ms;          /* live rows: when it was taken, on a steady clock (CLOCK_MONOTONIC) */
} cap_backend_frame;

/* An opened source, as a row's open fills it in. */
typedef struct cap_backend {
    void *self;
    /* 1 a frame, 0 the end, -1 lost (err says why), -2 a frame of a size no camera gives (err names it). */
    int (*read)(void *self, cap_backend_frame *f, base_error *err);
    void (*close)(void *self);  /* NULL: nothing to free */
    /* A source whose frames the projector lights (a simulated table): the picture projected from t_ms on,
     * copied. NULL: it does not see the projector (a camera sees the real one). */
    void (*project)(void *self, const base_image *picture, double t_ms);
    double fps;                 /* recordings are timed index / fps: > 0 for them; 0 unknown for a camera */
    long frame_count;           /* -1 unknown or a camera */
    char desc[512];             /* one line for people: "video file game.mp4 (120 frames at 25 fps)" */
} cap_backend;

typedef struct cap_row {
    const char *name;     /* the row's name: "v4l2", "folder" (in messages and the help) */
    const char *scheme;   /* "SCHEME:..." is this row's ("v4l2", "sim"); NULL: only claims decides */
    /* 1 when the source is this row's besides "SCHEME:..." ("libcamera" alone; a folder); NULL: none. A row
     * whose argument is a name or a URL decides from the text alone: cap_rows_arg asks it without the disk. */
    int (*claims)(const char *source);
    const char *usage;    /* how it is written, for the help: "v4l2:/dev/videoN" */
    const char *about;    /* what it is, for the help ('\n' continues on an indented line) */
    cap_live live;
    cap_arg arg;
    unsigned options;     /* CAP_OPT_*: what of cap_source_config it reads */
    unsigned flags;       /* CAP_ROW_* */
    cap_source_kind kind; /* cap_source_kind_of's answer */
    /* Opens `source` (the whole text, scheme included) into *out: 0, or -1 with a message naming it. */
    int (*open)(const char *source, const cap_source_config *cfg, cap_backend *out, base_error *err);
    /* The devices of this row attached to the machine (cap_source_list); NULL: none to list. A row that
     * lists devices is a camera: a failed open says how to list them (CAP_SOURCE_LIST_HINT). */
    int (*list)(cap_source_info *out, int cap, base_error *err);
} cap_row;

/* The row that takes `source`, or NULL (then a path that is not there: cap_source_open says so). Rows of
 * plain names may look at the disk (a folder, a file). */
const cap_row *cap_rows_find(const char *source);
/*
 * How `source`'s argument is taken, without looking at the disk: a scheme row's (or the URL row's) own
 * answer, anything else a path. *arg (may be NULL) gets where the argument starts: after "SCHEME:" for a
 * row with a scheme, else the whole source.
 */
cap_arg cap_rows_arg(const char *source, const char **arg);
/* The rows, built-in then registered (in the order the help lists them). */
size_t cap_rows_count(void);
const cap_row *cap_rows_at(size_t i);
/* Adds a row of a layer above (borrowed: it must outlive every use). 0 (again for the same row), -1 when its
 * scheme is another row's, it has no open or no way to be found, or the table is full. */
int cap_rows_register(const cap_row *row, base_error *err);
/* Every row as "INDENTusage  about" lines (about's further lines under it); the text's length. */
size_t cap_rows_help(char *buf, size_t cap, const char *indent);
/* "usage, usage, ..." of every row, for an option's help: a line ends ('\n') before one that would pass
 * `width` columns (the first line starts `first` columns in). The text's length. */
size_t cap_rows_usages(char *buf, size_t cap, size_t first, size_t width);

/* The built-in rows: capture/meson.build's list, made into cap_rows_builtin.c; NULL-terminated. */
extern const cap_row *const cap_rows_builtin[];

/* For rows: "SCHEME:..." (1) or not (0). */
int cap_rows_has_scheme(const char *source, const char *scheme);

#endif
