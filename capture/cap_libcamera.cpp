// libcamera behind a C header: open, read gray frames with a timeout, close. Every exception is caught.
#include "cap_libcamera.h"

#include <sys/mman.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include <libcamera/libcamera.h>

using namespace libcamera;

namespace {

/* libcamera allows one CameraManager per process: share it between cameras. */
std::mutex g_mgr_lock;
std::unique_ptr<CameraManager> g_mgr;
int g_mgr_users = 0;

int mgr_acquire(base_error *err)
{
    std::lock_guard<std::mutex> l(g_mgr_lock);
    if (!g_mgr) {
        /* Its IPA modules warn on stderr at every start; errors still show. */
        setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0);
        g_mgr = std::make_unique<CameraManager>();
        int rc = g_mgr->start();
        if (rc < 0) {
            g_mgr.reset();
            return base_error_set(err, "libcamera: cannot start the camera manager (error %d)", rc);
        }
    }
    g_mgr_users++;
    return 0;
}

void mgr_release()
{
    std::lock_guard<std::mutex> l(g_mgr_lock);
    if (--g_mgr_users == 0 && g_mgr) {
        g_mgr->stop();
        g_mgr.reset();
    }
}

struct mapping {
    void *addr;
    size_t len;
    size_t y_offset;
};

} // namespace

struct cap_libcamera {
    std::shared_ptr<Camera> cam;
    std::unique_ptr<CameraConfiguration> config;
    std::unique_ptr<FrameBufferAllocator> alloc;
    std::vector<std::unique_ptr<Request>> requests;
    std::vector<mapping> maps;  // per buffer, indexed by the buffer's cookie
    Stream *stream = nullptr;
    bool acquired = false, started = false;
    int width = 0, height = 0;
    size_t stride = 0;

    std::mutex lock;
    std::condition_variable cond;
    std::vector<uint8_t> latest, lent;  // luma of the newest frame; the copy lent to the caller
    bool fresh = false, failed = false;
    double t_ms = 0;

    void completed(Request *req)
    {
        if (req->status() == Request::RequestCancelled)
            return;
        {
            std::lock_guard<std::mutex> l(lock);
            if (req->status() != Request::RequestComplete) {
                failed = true;
            } else {
                FrameBuffer *fb = req->findBuffer(stream);
                const mapping &m = maps.at(fb->cookie());
                const uint8_t *y = static_cast<const uint8_t *>(m.addr) + m.y_offset;
                latest.assign(y, y + stride * height);
                t_ms = fb->metadata().timestamp / 1e6;
                fresh = true;
            }
        }
        cond.notify_one();
        req->reuse(Request::ReuseBuffers);
        cam->queueRequest(req);
    }
};

static void teardown(cap_libcamera *c)
{
    try {
        if (c->started)
            c->cam->stop();
        if (c->cam)
            c->cam->requestCompleted.disconnect(c);
        c->requests.clear();
        for (const mapping &m : c->maps)
            if (m.addr && m.addr != MAP_FAILED)
                munmap(m.addr, m.len);
        c->maps.clear();
        if (c->alloc && c->stream)
            c->alloc->free(c->stream);
        c->alloc.reset();
        if (c->acquired)
            c->cam->release();
        c->cam.reset();
    } catch (...) {
    }
}

extern "C" int cap_libcamera_count(base_error *err)
{
    try {
        if (mgr_acquire(err) < 0)
            return -1;
        int n = (int)g_mgr->cameras().size();
        mgr_release();
        return n;
    } catch (const std::exception &e) {
        return base_error_set(err, "libcamera: %s", e.what());
    } catch (...) {
        return base_error_set(err, "libcamera: cannot list cameras");
    }
}

extern "C" int cap_libcamera_name(int index, char *buf, size_t cap, base_error *err)
{
    try {
        if (mgr_acquire(err) < 0)
            return -1;
        auto cams = g_mgr->cameras();
        int rc = 0;
        if (index < 0 || (size_t)index >= cams.size())
            rc = base_error_set(err, "libcamera camera %d not found", index);
        else
            snprintf(buf, cap, "%s", cams[index]->id().c_str());
        mgr_release();
        return rc;
    } catch (const std::exception &e) {
        return base_error_set(err, "libcamera: %s", e.what());
    } catch (...) {
        return base_error_set(err, "libcamera: cannot list cameras");
    }
}

static int start_camera(cap_libcamera *c, int index, int width, int height, base_error *err)
{
    auto cams = g_mgr->cameras();
    if (cams.empty())
        return base_error_set(err, "no libcamera camera found");
    if (index < 0 || (size_t)index >= cams.size())
        return base_error_set(err, "libcamera camera %d not found (%zu camera%s attached)", index, cams.size(),
                               cams.size() == 1 ? "" : "s");
    c->cam = cams[index];
    if (c->cam->acquire() < 0)
        return base_error_set(err, "libcamera camera %d is in use by another program", index);
    c->acquired = true;
    c->config = c->cam->generateConfiguration({StreamRole::Viewfinder});
    if (!c->config || c->config->empty())
        return base_error_set(err, "libcamera camera %d: no usable stream configuration", index);
    StreamConfiguration &sc = c->config->at(0);
    /* Planar YUV: its first plane is the gray picture detection needs, with no conversion. */
    sc.pixelFormat = formats::YUV420;
    if (width > 0 && height > 0)
        sc.size = Size((unsigned)width, (unsigned)height);
    sc.bufferCount = 4;
    if (c->config->validate() == CameraConfiguration::Invalid)
        return base_error_set(err, "libcamera camera %d: cannot stream YUV420", index);
    if (sc.pixelFormat != formats::YUV420 && sc.pixelFormat != formats::NV12)
        return base_error_set(err, "libcamera camera %d: no planar YUV format (got %s)", index,
                               sc.pixelFormat.toString().c_str());
    if (c->cam->configure(c->config.get()) < 0)
        return base_error_set(err, "libcamera camera %d: configuration refused", index);
    c->stream = sc.stream();
    c->width = (int)sc.size.width, c->height = (int)sc.size.height, c->stride = sc.stride;
    c->alloc = std::make_unique<FrameBufferAllocator>(c->cam);
    if (c->alloc->allocate(c->stream) < 0)
        return base_error_set(err, "libcamera camera %d: cannot allocate frame buffers", index);
    unsigned cookie = 0;
    for (const std::unique_ptr<FrameBuffer> &fb : c->alloc->buffers(c->stream)) {
        const FrameBuffer::Plane &p = fb->planes()[0];
        mapping m;
        m.len = p.offset + p.length;
        m.y_offset = p.offset;
        m.addr = mmap(nullptr, m.len, PROT_READ, MAP_SHARED, p.fd.get(), 0);
        if (m.addr == MAP_FAILED)
            return base_error_set(err, "libcamera camera %d: cannot map a frame buffer", index);
        c->maps.push_back(m);
        fb->setCookie(cookie++);
        std::unique_ptr<Request> req = c->cam->createRequest();
        if (!req || req->addBuffer(c->stream, fb.get()) < 0)
            return base_error_set(err, "libcamera camera %d: cannot create a capture request", index);
        c->requests.push_back(std::move(req));
    }
    c->cam->requestCompleted.connect(c, &cap_libcamera::completed);
    if (c->cam->start() < 0)
        return base_error_set(err, "libcamera camera %d: cannot start streaming", index);
    c->started = true;
    for (std::unique_ptr<Request> &r : c->requests)
        if (c->cam->queueRequest(r.get()) < 0)
            return base_error_set(err, "libcamera camera %d: cannot queue a capture request", index);
    return 0;
}

extern "C" cap_libcamera *cap_libcamera_open(int index, int width, int height, base_error *err)
{
    cap_libcamera *c = nullptr;
    bool mgr = false;
    try {
        if (mgr_acquire(err) < 0)
            return nullptr;
        mgr = true;
        c = new cap_libcamera();
        if (start_camera(c, index, width, height, err) == 0)
            return c;
    } catch (const std::exception &e) {
        base_error_set(err, "libcamera: %s", e.what());
    } catch (...) {
        base_error_set(err, "libcamera: cannot open camera %d", index);
    }
    if (c) {
        teardown(c);
        delete c;
    }
    if (mgr)
        mgr_release();
    return nullptr;
}

extern "C" int cap_libcamera_read(cap_libcamera *c, int timeout_ms, const uint8_t **gray, int *width, int *height,
                               size_t *stride, double *t_ms, base_error *err)
{
    try {
        std::unique_lock<std::mutex> l(c->lock);
        if (!c->cond.wait_for(l, std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 1),
                              [c] { return c->fresh || c->failed; }))
            return base_error_set(err, "libcamera: no frame within %d ms (camera gone?)", timeout_ms);
        if (c->failed && !c->fresh)
            return base_error_set(err, "libcamera: a capture request failed (camera gone?)");
        c->lent.swap(c->latest);
        c->fresh = false;
        *gray = c->lent.data();
        *width = c->width, *height = c->height, *stride = c->stride;
        *t_ms = c->t_ms;
        return 1;
    } catch (const std::exception &e) {
        return base_error_set(err, "libcamera: %s", e.what());
    } catch (...) {
        return base_error_set(err, "libcamera: read failed");
    }
}

extern "C" void cap_libcamera_close(cap_libcamera *c)
{
    if (!c)
        return;
    teardown(c);
    delete c;
    mgr_release();
}
