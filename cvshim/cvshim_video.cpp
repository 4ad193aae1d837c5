// The video writer through OpenCV's videoio (FFmpeg); every exception becomes a rules_error.
// Reading videos and cameras, and the window, moved to media/ (cvshim_media.c adapts).
// This file goes when watch/watch_record.c (libavformat) replaces the writer, and videoio with it.
#include <cstring>
#include <exception>

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

struct cvs_video_writer {
    cv::VideoWriter w;
    int width, height;
    cv::Mat bgr;
};

/* OpenCV prints its own warnings for a missing device; our message is the plain one. */
namespace {
struct quiet_log {
    cv::utils::logging::LogLevel old;
    quiet_log() : old(cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT)) {}
    ~quiet_log() { cv::utils::logging::setLogLevel(old); }
};
} // namespace

extern "C" cvs_video_writer *cvs_video_writer_open(const char *path, int width, int height, double fps,
                                                   char *codec_out, rules_error *err)
{
    if (width <= 0 || height <= 0 || !(fps > 0)) {
        rules_error_set(err, "%s: bad video size or frame rate", path);
        return nullptr;
    }
    cvs_video_writer *w = nullptr;
    try {
        w = new cvs_video_writer();
        w->width = width, w->height = height;
        static const char *codecs[] = {"avc1", "mp4v"};
        quiet_log q;
        for (const char *c : codecs) {
            if (w->w.open(path, cv::CAP_FFMPEG, cv::VideoWriter::fourcc(c[0], c[1], c[2], c[3]), fps,
                          cv::Size(width, height), true)) {
                if (codec_out)
                    memcpy(codec_out, c, 5);
                return w;
            }
        }
        rules_error_set(err, "%s: FFmpeg cannot write this file (tried H.264 and MPEG-4 codecs)", path);
    } catch (const std::exception &e) {
        rules_error_set(err, "%s: cannot open video writer: %s", path, e.what());
    } catch (...) {
        rules_error_set(err, "%s: cannot open video writer", path);
    }
    delete w;
    return nullptr;
}

extern "C" int cvs_video_write(cvs_video_writer *w, const cvs_image *img, rules_error *err)
{
    if (img->width != w->width || img->height != w->height)
        return rules_error_set(err, "video frame is %dx%d, the recording %dx%d", img->width, img->height,
                               w->width, w->height);
    try {
        if (img->channels == 1) {
            cv::cvtColor(cvs_view(img), w->bgr, cv::COLOR_GRAY2BGR);
            w->w.write(w->bgr);
        } else {
            w->w.write(cvs_view(img));
        }
        return 0;
    } catch (const std::exception &e) {
        return rules_error_set(err, "video write failed: %s", e.what());
    } catch (...) {
        return rules_error_set(err, "video write failed");
    }
}

extern "C" void cvs_video_writer_close(cvs_video_writer *w)
{
    if (!w)
        return;
    try {
        w->w.release();
    } catch (...) {
    }
    delete w;
}

