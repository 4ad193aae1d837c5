/*
 * A plain X11 window (media.h): the projector's pattern and `watch --show`.
 * Xlib only (no toolkit): an XImage scaled to the window by nearest pixel,
 * fullscreen through the window manager's _NET_WM_STATE_FULLSCREEN (and the
 * whole screen's size when there is no window manager, as under Xvfb).
 */
#include "media.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>

struct media_window {
    Display *dpy;
    Window win;
    GC gc;
    XImage *img;        /* window-sized BGRX buffer */
    int width, height;  /* the window's inside, as last configured */
    Atom wm_delete;
    int pending_key;
};

/* Xlib's default error handler exits the process; a failed request is reported by the call instead. */
static int x_error_seen;
static int on_x_error(Display *d, XErrorEvent *e)
{
    (void)d, (void)e;
    x_error_seen = 1;
    return 0;
}

int media_window_available(void)
{
    const char *d = getenv("DISPLAY");
    return d && *d;
}

static void ask_fullscreen(media_window *w)
{
    Atom state = XInternAtom(w->dpy, "_NET_WM_STATE", False);
    Atom full = XInternAtom(w->dpy, "_NET_WM_STATE_FULLSCREEN", False);
    XChangeProperty(w->dpy, w->win, state, XA_ATOM, 32, PropModeReplace, (unsigned char *)&full, 1);
}

media_window *media_window_open(const char *title, int x, int y, int fullscreen, base_error *err)
{
    if (!media_window_available()) {
        base_error_set(err, "no display (DISPLAY is not set)");
        return NULL;
    }
    media_window *w = calloc(1, sizeof *w);
    if (!w) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    w->pending_key = -1;
    XSetErrorHandler(on_x_error);
    if (!(w->dpy = XOpenDisplay(NULL))) {
        base_error_set(err, "cannot open display %s", getenv("DISPLAY"));
        free(w);
        return NULL;
    }
    int scr = DefaultScreen(w->dpy);
    if (DefaultDepth(w->dpy, scr) < 24 || DefaultVisual(w->dpy, scr)->class != TrueColor) {
        base_error_set(err, "display %s: needs a 24-bit true-colour screen", getenv("DISPLAY"));
        media_window_free(w);
        return NULL;
    }
    w->width = fullscreen ? DisplayWidth(w->dpy, scr) : 640;
    w->height = fullscreen ? DisplayHeight(w->dpy, scr) : 480;
    w->win = XCreateSimpleWindow(w->dpy, RootWindow(w->dpy, scr), x, y, (unsigned)w->width, (unsigned)w->height, 0,
                                 BlackPixel(w->dpy, scr), BlackPixel(w->dpy, scr));
    XStoreName(w->dpy, w->win, title);
    XSelectInput(w->dpy, w->win, KeyPressMask | StructureNotifyMask | ExposureMask);
    w->wm_delete = XInternAtom(w->dpy, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(w->dpy, w->win, &w->wm_delete, 1);
    /* Keep the asked position: window managers otherwise place new windows themselves. */
    XSizeHints hints = {.flags = PPosition | USPosition, .x = x, .y = y};
    XSetWMNormalHints(w->dpy, w->win, &hints);
    if (fullscreen)
        ask_fullscreen(w);
    w->gc = XCreateGC(w->dpy, w->win, 0, NULL);
    XMapRaised(w->dpy, w->win);
    XSync(w->dpy, False);
    return w;
}

static int ensure_image(media_window *w, base_error *err)
{
    if (w->img && w->img->width == w->width && w->img->height == w->height)
        return 0;
    if (w->img)
        XDestroyImage(w->img); /* frees the pixels too */
    w->img = NULL;
    int scr = DefaultScreen(w->dpy);
    char *px = malloc((size_t)w->width * (size_t)w->height * 4);
    if (!px)
        return base_error_set(err, "window: out of memory");
    w->img = XCreateImage(w->dpy, DefaultVisual(w->dpy, scr), (unsigned)DefaultDepth(w->dpy, scr), ZPixmap, 0, px,
                          (unsigned)w->width, (unsigned)w->height, 32, 0);
    if (!w->img) {
        free(px);
        return base_error_set(err, "window: cannot make an image of %dx%d", w->width, w->height);
    }
    return 0;
}

/* Window events: its size, the keys, the close button (ignored: watch stops by its own keys). */
static void handle_events(media_window *w)
{
    while (XPending(w->dpy)) {
        XEvent ev;
        XNextEvent(w->dpy, &ev);
        if (ev.type == ConfigureNotify) {
            w->width = ev.xconfigure.width;
            w->height = ev.xconfigure.height;
        } else if (ev.type == Expose && ev.xexpose.count == 0 && w->img) {
            XPutImage(w->dpy, w->win, w->gc, w->img, 0, 0, 0, 0, (unsigned)w->img->width, (unsigned)w->img->height);
        } else if (ev.type == KeyPress && w->pending_key < 0) {
            char ch = 0;
            KeySym sym;
            if (XLookupString(&ev.xkey, &ch, 1, &sym, NULL) == 1)
                w->pending_key = (unsigned char)ch;
            else if (sym == XK_Escape)
                w->pending_key = 27;
        }
    }
}

/* Nearest-pixel scaling of gray or BGR into the window's 32-bit BGRX image. */
static void scale_into(XImage *dst, const base_view *src)
{
    int *col = malloc(sizeof *col * (size_t)dst->width);
    if (!col)
        return;
    for (int c = 0; c < dst->width; c++)
        col[c] = (int)((2L * c + 1) * src->width / (2L * dst->width));
    for (int r = 0; r < dst->height; r++) {
        const uint8_t *s = src->data + (size_t)((2L * r + 1) * src->height / (2L * dst->height)) * src->stride;
        uint8_t *d = (uint8_t *)dst->data + (size_t)r * (size_t)dst->bytes_per_line;
        for (int c = 0; c < dst->width; c++, d += 4) {
            const uint8_t *p = s + (size_t)col[c] * (size_t)src->channels;
            d[0] = p[0];
            d[1] = src->channels == 3 ? p[1] : p[0];
            d[2] = src->channels == 3 ? p[2] : p[0];
            d[3] = 0;
        }
    }
    free(col);
}

int media_window_show(media_window *w, const base_view *img, base_error *err)
{
    if (!img || !img->data || img->width <= 0 || img->height <= 0 || (img->channels != 1 && img->channels != 3))
        return base_error_set(err, "window: not an 8-bit gray or BGR picture");
    handle_events(w);
    if (ensure_image(w, err) < 0)
        return -1;
    scale_into(w->img, img);
    x_error_seen = 0;
    XPutImage(w->dpy, w->win, w->gc, w->img, 0, 0, 0, 0, (unsigned)w->width, (unsigned)w->height);
    XSync(w->dpy, False);
    if (x_error_seen)
        return base_error_set(err, "window: the X server refused the picture");
    handle_events(w);
    return 0;
}

int media_window_key(media_window *w, int wait_ms)
{
    handle_events(w);
    if (w->pending_key < 0 && wait_ms > 0) {
        struct pollfd p = {ConnectionNumber(w->dpy), POLLIN, 0};
        if (poll(&p, 1, wait_ms) > 0)
            handle_events(w);
    }
    int k = w->pending_key;
    w->pending_key = -1;
    return k;
}

void media_window_size(const media_window *w, int *width, int *height)
{
    *width = w->width;
    *height = w->height;
}

void media_window_free(media_window *w)
{
    if (!w)
        return;
    if (w->img)
        XDestroyImage(w->img);
    if (w->gc)
        XFreeGC(w->dpy, w->gc);
    if (w->win)
        XDestroyWindow(w->dpy, w->win);
    XCloseDisplay(w->dpy);
    free(w);
}
