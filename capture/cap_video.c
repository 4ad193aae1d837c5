/* Video files through FFmpeg: libavformat demuxes, libavcodec decodes, libswscale makes BGR (media.h). */
#include "cap_video.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

struct cap_video {
    AVFormatContext *fmt;
    AVCodecContext *dec;
    AVPacket *pkt;
    AVFrame *frame;
    struct SwsContext *sws;
    int stream, want, flushed;
    long decoded;
    uint8_t *gray, *bgr;        /* our buffers, grown to the frame's size */
    size_t gray_cap, bgr_cap;
    uint8_t range_lut[256];     /* limited-range (16..235) luma -> full range */
};

static void av_message(int code, char *buf, size_t cap)
{
    if (av_strerror(code, buf, cap) < 0)
        snprintf(buf, cap, "error %d", code);
}

/* FFmpeg would print its own warnings; our messages say what failed. Left alone if someone set a level. */
static void quiet_ffmpeg(void)
{
    if (av_log_get_level() == AV_LOG_INFO)
        av_log_set_level(AV_LOG_QUIET);
}

static int open_decoder(cap_video *v, const char *path, base_error *err)
{
    char msg[128];
    int rc = avformat_find_stream_info(v->fmt, NULL);
    if (rc >= 0)
        rc = v->stream = av_find_best_stream(v->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (rc < 0) {
        av_message(rc, msg, sizeof msg);
        return base_error_set(err, "cannot open %s: no video stream FFmpeg can read (%s)", path, msg);
    }
    const AVCodecParameters *par = v->fmt->streams[v->stream]->codecpar;
    const AVCodec *codec = avcodec_find_decoder(par->codec_id);
    if (!codec)
        return base_error_set(err, "cannot open %s: no decoder for its %s video", path, avcodec_get_name(par->codec_id));
    if (!(v->dec = avcodec_alloc_context3(codec)) || !(v->pkt = av_packet_alloc()) || !(v->frame = av_frame_alloc()))
        return base_error_set(err, "cannot open %s: out of memory", path);
    if ((rc = avcodec_parameters_to_context(v->dec, par)) >= 0) {
        v->dec->thread_count = 0; /* FFmpeg's choice: one per core */
        rc = avcodec_open2(v->dec, codec, NULL);
    }
    if (rc < 0) {
        av_message(rc, msg, sizeof msg);
        return base_error_set(err, "cannot open %s: the %s decoder refused it (%s)", path, codec->name, msg);
    }
    return 0;
}

cap_video *cap_video_open(const char *path, int want, base_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        base_error_set(err, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    cap_video *v = calloc(1, sizeof *v);
    if (!v) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    v->want = want & (CAP_VIDEO_GRAY | CAP_VIDEO_BGR) ? want : CAP_VIDEO_GRAY;
    for (int i = 0; i < 256; i++) {
        long y = lround((i - 16) * 255.0 / 219.0);
        v->range_lut[i] = (uint8_t)(y < 0 ? 0 : y > 255 ? 255 : y);
    }
    quiet_ffmpeg();
    int rc = avformat_open_input(&v->fmt, path, NULL, NULL);
    if (rc < 0) {
        char msg[128];
        av_message(rc, msg, sizeof msg);
        base_error_set(err, "cannot open %s: not a video FFmpeg can read (%s)", path, msg);
        cap_video_free(v);
        return NULL;
    }
    if (open_decoder(v, path, err) < 0) {
        cap_video_free(v);
        return NULL;
    }
    return v;
}

static int grow(uint8_t **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return 0;
    uint8_t *b = realloc(*buf, need);
    if (!b)
        return -1;
    *buf = b;
    *cap = need;
    return 0;
}

static int is_limited_range(const AVFrame *f)
{
    if (f->color_range == AVCOL_RANGE_JPEG)
        return 0;
    /* FFmpeg's "J" formats are full range whatever the frame says. */
    return f->format != AV_PIX_FMT_YUVJ420P && f->format != AV_PIX_FMT_YUVJ422P && f->format != AV_PIX_FMT_YUVJ444P &&
           f->format != AV_PIX_FMT_GRAY8;
}

/* Planar or semi-planar YUV and gray: plane 0 is the luma, one byte a pixel. */
static int has_luma_plane(int fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM)) &&
           d->comp[0].plane == 0 && d->comp[0].depth == 8 && d->comp[0].step == 1;
}

static int make_bgr(cap_video *v, const AVFrame *f, base_view *out, base_error *err)
{
    const int w = f->width, h = f->height;
    const size_t stride = ((size_t)w * 3 + 31) & ~(size_t)31;
    if (grow(&v->bgr, &v->bgr_cap, stride * (size_t)h) < 0)
        return base_error_set(err, "out of memory");
    v->sws = sws_getCachedContext(v->sws, w, h, f->format, w, h, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
    if (!v->sws)
        return base_error_set(err, "video: no conversion from %s to BGR", av_get_pix_fmt_name(f->format));
    const int *coef = sws_getCoefficients(f->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT);
    sws_setColorspaceDetails(v->sws, coef, !is_limited_range(f), coef, 1, 0, 1 << 16, 1 << 16);
    uint8_t *dst[4] = {v->bgr, NULL, NULL, NULL};
    int dst_stride[4] = {(int)stride, 0, 0, 0};
    sws_scale(v->sws, (const uint8_t *const *)f->data, f->linesize, 0, h, dst, dst_stride);
    *out = (base_view){w, h, 3, stride, v->bgr};
    return 0;
}

/* Gray as tableref's readers give it: BT.601 luma, full range. */
static int make_gray(cap_video *v, const AVFrame *f, const base_view *bgr, base_view *out, base_error *err)
{
    const int w = f->width, h = f->height;
    if (grow(&v->gray, &v->gray_cap, (size_t)w * (size_t)h) < 0)
        return base_error_set(err, "out of memory");
    if (has_luma_plane(f->format)) {
        /* The decoder's own Y plane; limited range stretched by a table. */
        const int lut = is_limited_range(f);
        for (int r = 0; r < h; r++) {
            const uint8_t *src = f->data[0] + (ptrdiff_t)r * f->linesize[0];
            uint8_t *dst = v->gray + (size_t)r * (size_t)w;
            if (!lut)
                memcpy(dst, src, (size_t)w);
            else
                for (int c = 0; c < w; c++)
                    dst[c] = v->range_lut[src[c]];
        }
    } else {
        for (int r = 0; r < h; r++) {
            const uint8_t *p = bgr->data + (size_t)r * bgr->stride;
            uint8_t *dst = v->gray + (size_t)r * (size_t)w;
            for (int c = 0; c < w; c++, p += 3)
                dst[c] = (uint8_t)((p[0] * 1868u + p[1] * 9617u + p[2] * 4899u + 8192u) >> 14);
        }
    }
    *out = (base_view){w, h, 1, (size_t)w, v->gray};
    return 0;
}

static int deliver(cap_video *v, base_view *gray, base_view *bgr, base_error *err)
{
    const AVFrame *f = v->frame;
    base_view colour = {0};
    const int need_bgr = (v->want & CAP_VIDEO_BGR) || !has_luma_plane(f->format);
    if (need_bgr && make_bgr(v, f, &colour, err) < 0)
        return -1;
    if (bgr)
        *bgr = colour;
    if ((v->want & CAP_VIDEO_GRAY) && make_gray(v, f, &colour, gray ? gray : &(base_view){0}, err) < 0)
        return -1;
    v->decoded++;
    return 1;
}

int cap_video_read(cap_video *v, base_view *gray, base_view *bgr, base_error *err)
{
    char msg[128];
    for (;;) {
        int rc = avcodec_receive_frame(v->dec, v->frame);
        if (rc == 0)
            return deliver(v, gray, bgr, err);
        if (rc == AVERROR_EOF)
            return 0;
        if (rc != AVERROR(EAGAIN) || v->flushed) {
            av_message(rc, msg, sizeof msg);
            return base_error_set(err, "video frame %ld: cannot decode (%s)", v->decoded, msg);
        }
        rc = av_read_frame(v->fmt, v->pkt);
        if (rc == AVERROR_EOF) {
            v->flushed = 1;
            avcodec_send_packet(v->dec, NULL); /* drain the frames the decoder holds */
            continue;
        }
        if (rc < 0) {
            av_message(rc, msg, sizeof msg);
            return base_error_set(err, "video frame %ld: read failed (%s)", v->decoded, msg);
        }
        if (v->pkt->stream_index == v->stream)
            rc = avcodec_send_packet(v->dec, v->pkt);
        av_packet_unref(v->pkt);
        if (rc < 0 && rc != AVERROR(EAGAIN)) {
            av_message(rc, msg, sizeof msg);
            return base_error_set(err, "video frame %ld: corrupt data (%s)", v->decoded, msg);
        }
    }
}

double cap_video_fps(const cap_video *v)
{
    AVRational r = av_guess_frame_rate(v->fmt, v->fmt->streams[v->stream], NULL);
    double f = r.den > 0 ? av_q2d(r) : 0;
    return isfinite(f) && f > 0 && f < 1000 ? f : 0;
}

long cap_video_frame_count(const cap_video *v)
{
    const AVStream *s = v->fmt->streams[v->stream];
    if (s->nb_frames > 0)
        return (long)s->nb_frames;
    /* No count in the container: the duration times the rate, as OpenCV estimated it. */
    double fps = cap_video_fps(v);
    if (v->fmt->duration > 0 && fps > 0)
        return lround((double)v->fmt->duration / AV_TIME_BASE * fps);
    return -1;
}

void cap_video_free(cap_video *v)
{
    if (!v)
        return;
    sws_freeContext(v->sws);
    av_frame_free(&v->frame);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->dec);
    avformat_close_input(&v->fmt);
    free(v->gray);
    free(v->bgr);
    free(v);
}
