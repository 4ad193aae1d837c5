// Video through OpenCV's videoio (FFmpeg, V4L2) and highgui; every exception becomes a rules_error.
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/highgui.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

struct cvs_video_reader {
    cv::VideoCapture cap;
    int kind;
    cv::Mat first;  // a device's first frame, read at open to prove it delivers
    bool have_first;
};

/* OpenCV prints its own warnings for a missing device; our message is the plain one. */
namespace {
struct quiet_log {
    cv::utils::logging::LogLevel old;
    quiet_log() : old(cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT)) {}
    ~quiet_log() { cv::utils::logging::setLogLevel(old); }
};
} // namespace

static int open_device(cvs_video_reader *r, const char *path, int width, int height, double fps, int timeout_ms,
                       rules_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return rules_error_set(err, "cannot open %s: %s", path,
                               errno == ENOENT ? "no such device" : strerror(errno));
    if (!S_ISCHR(st.st_mode))
        return rules_error_set(err, "cannot open %s: not a video device", path);
    /* OpenCV's V4L2 backend waits this many seconds in select() for a frame
     * (default 10); read once, so set it before the first open. */
    char secs[32];
    snprintf(secs, sizeof secs, "%d", timeout_ms > 0 ? (timeout_ms + 999) / 1000 : 10);
    setenv("OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", secs, 0);
    quiet_log q;
    if (!r->cap.open(path, cv::CAP_V4L2))
        return rules_error_set(err, "cannot open %s: the V4L2 device refused to start capturing", path);
    if (width > 0 && height > 0) {
        r->cap.set(cv::CAP_PROP_FRAME_WIDTH, width);
        r->cap.set(cv::CAP_PROP_FRAME_HEIGHT, height);
    }
    if (fps > 0)
        r->cap.set(cv::CAP_PROP_FPS, fps);
    if (!r->cap.read(r->first) || r->first.empty())
        return rules_error_set(err, "cannot read from %s: no frame within %d ms", path, timeout_ms);
    r->have_first = true;
    return 0;
}

extern "C" cvs_video_reader *cvs_video_open(const char *path, int kind, int width, int height, double fps,
                                            int timeout_ms, rules_error *err)
{
    cvs_video_reader *r = nullptr;
    try {
        r = new cvs_video_reader();
        r->kind = kind;
        r->have_first = false;
        if (kind == CVS_VIDEO_V4L2) {
            if (open_device(r, path, width, height, fps, timeout_ms, err) < 0) {
                delete r;
                return nullptr;
            }
            return r;
        }
        struct stat st;
        if (stat(path, &st) < 0) {
            rules_error_set(err, "cannot open %s: %s", path, strerror(errno));
            delete r;
            return nullptr;
        }
        quiet_log q;
        if (!r->cap.open(path, cv::CAP_FFMPEG)) {
            rules_error_set(err, "cannot open %s: not a video FFmpeg can read", path);
            delete r;
            return nullptr;
        }
        return r;
    } catch (const std::exception &e) {
        rules_error_set(err, "cannot open %s: %s", path, e.what());
    } catch (...) {
        rules_error_set(err, "cannot open %s", path);
    }
    delete r;
    return nullptr;
}

extern "C" int cvs_video_read(cvs_video_reader *r, cvs_image **out, rules_error *err)
{
    try {
        cv::Mat m;
        if (r->have_first) {
            m = r->first;
            r->first.release();
            r->have_first = false;
        } else if (!r->cap.read(m) || m.empty()) {
            if (r->kind == CVS_VIDEO_FILE)
                return 0;
            return rules_error_set(err, "the camera stopped delivering frames (unplugged?)");
        }
        if (m.depth() != CV_8U || (m.channels() != 1 && m.channels() != 3))
            return rules_error_set(err, "unsupported frame format (depth %d, %d channels)", m.depth(), m.channels());
        cvs_image *img = *out;
        if (!img || img->width != m.cols || img->height != m.rows || img->channels != m.channels()) {
            cvs_image_free(img);
            *out = img = cvs_image_new(m.cols, m.rows, m.channels(), 0);
            if (!img)
                return rules_error_set(err, "out of memory");
        }
        m.copyTo(cvs_view(img));
        return 1;
    } catch (const std::exception &e) {
        return rules_error_set(err, "frame read failed: %s", e.what());
    } catch (...) {
        return rules_error_set(err, "frame read failed");
    }
}

extern "C" double cvs_video_fps(const cvs_video_reader *r)
{
    try {
        double f = r->cap.get(cv::CAP_PROP_FPS);
        return std::isfinite(f) && f > 0 && f < 1000 ? f : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" long cvs_video_frame_count(const cvs_video_reader *r)
{
    if (r->kind != CVS_VIDEO_FILE)
        return -1;
    try {
        double n = r->cap.get(cv::CAP_PROP_FRAME_COUNT);
        return std::isfinite(n) && n > 0 ? (long)n : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" void cvs_video_close(cvs_video_reader *r)
{
    if (!r)
        return;
    try {
        r->cap.release();
    } catch (...) {
    }
    delete r;
}

static cvs_image *convert(const cvs_image *img, int want_channels, rules_error *err)
{
    try {
        if (img->channels == want_channels) {
            cvs_image *c = cvs_image_clone(img);
            if (!c)
                rules_error_set(err, "out of memory");
            return c;
        }
        cv::Mat m;
        cv::cvtColor(cvs_view(img), m, want_channels == 1 ? cv::COLOR_BGR2GRAY : cv::COLOR_GRAY2BGR);
        cvs_image *c = cvs_from_mat(m);
        if (!c)
            rules_error_set(err, "out of memory");
        return c;
    } catch (const std::exception &e) {
        rules_error_set(err, "colour conversion failed: %s", e.what());
    } catch (...) {
        rules_error_set(err, "colour conversion failed");
    }
    return nullptr;
}

extern "C" cvs_image *cvs_image_to_gray(const cvs_image *img, rules_error *err) { return convert(img, 1, err); }
extern "C" cvs_image *cvs_image_to_bgr(const cvs_image *img, rules_error *err) { return convert(img, 3, err); }

/* The window cvs_window_show created (highgui keeps its own registry by name). */
static std::string g_window;

extern "C" int cvs_window_available(void)
{
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (w && *w);
}

extern "C" int cvs_window_show(const char *name, const cvs_image *img, int fullscreen, rules_error *err)
{
    if (!cvs_window_available())
        return rules_error_set(err, "no display (DISPLAY is not set)");
    try {
        if (g_window != name) {
            cv::namedWindow(name, cv::WINDOW_NORMAL);
            if (fullscreen)
                cv::setWindowProperty(name, cv::WND_PROP_FULLSCREEN, cv::WINDOW_FULLSCREEN);
            g_window = name;
        }
        cv::imshow(name, cvs_view(img));
        cv::pollKey();
        return 0;
    } catch (const std::exception &e) {
        return rules_error_set(err, "window: %s", e.what());
    } catch (...) {
        return rules_error_set(err, "window: cannot show");
    }
}

extern "C" int cvs_window_key(int wait_ms)
{
    try {
        int k = cv::waitKey(wait_ms < 1 ? 1 : wait_ms);
        return k < 0 ? -1 : (k & 0xff);
    } catch (...) {
        return -1;
    }
}

extern "C" void cvs_window_close(const char *name)
{
    try {
        if (g_window == name) {
            cv::destroyWindow(name);
            g_window.clear();
        }
    } catch (...) {
    }
}
