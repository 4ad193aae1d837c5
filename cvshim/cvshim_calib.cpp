// Camera calibration from OpenCV's calib3d (the projector window is media/media_screen.c).
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/calib3d.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

extern "C" int cvs_find_chessboard(const base_image *img, int cols, int rows, double *xy, base_error *err)
{
    if (cols < 2 || rows < 2)
        return base_error_set(err, "chessboard: need at least 2x2 inner corners, have %dx%d", cols, rows);
    if (img->channels != 1)
        return base_error_set(err, "chessboard: expected a gray image");
    try {
        cv::Mat gray = cvs_view(img);
        std::vector<cv::Point2f> corners;
        const int flags = cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE;
        if (!cv::findChessboardCorners(gray, cv::Size(cols, rows), corners, flags))
            return 0;
        // The detector's corners are good to about a pixel; the saddle-point
        // refinement brings them to ~0.1 px, which is what calibration needs.
        cv::cornerSubPix(gray, corners, cv::Size(11, 11), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30, 0.01));
        for (size_t i = 0; i < corners.size(); i++) {
            xy[2 * i] = corners[i].x;
            xy[2 * i + 1] = corners[i].y;
        }
        return 1;
    } catch (const std::exception &e) {
        return base_error_set(err, "chessboard: %s", e.what());
    } catch (...) {
        return base_error_set(err, "chessboard: unknown failure");
    }
}

// Columns of projectPoints' Jacobian: rvec 0-2, tvec 3-5, fx fy 6-7, cx cy 8-9, k1 k2 p1 p2 k3 10-14.
enum { JAC_INTR = 6, JAC_COLS = 15 };

/*
 * The full covariance of the nine intrinsics, as OpenCV computes their
 * standard deviations but without dropping the off-diagonal terms: Gauss-
 * Newton normal matrix of all reprojections, each view's pose eliminated by
 * its Schur complement, scaled by the residual variance.
 */
static void intrinsics_covariance(const std::vector<std::vector<cv::Point3d>> &obj,
                                  const std::vector<std::vector<cv::Point2d>> &img, const std::vector<cv::Mat> &rvecs,
                                  const std::vector<cv::Mat> &tvecs, const cv::Matx33d &K, const cv::Mat &dist,
                                  unsigned flags, double cov[CVS_CALIB_NPARAM * CVS_CALIB_NPARAM])
{
    const double aspect = K(1, 1) / K(0, 0);
    // M maps the free parameters phi to the nine theta = (fx fy cx cy k1 k2 p1 p2 k3).
    std::vector<std::vector<double>> cols;
    auto unit = [](int i, double v) {
        std::vector<double> c(CVS_CALIB_NPARAM, 0.0);
        c[i] = v;
        return c;
    };
    if (flags & CVS_CALIB_FIX_ASPECT) {
        std::vector<double> c = unit(0, 1.0);
        c[1] = aspect;
        cols.push_back(c);
    } else {
        cols.push_back(unit(0, 1));
        cols.push_back(unit(1, 1));
    }
    cols.push_back(unit(2, 1));
    cols.push_back(unit(3, 1));
    if (!(flags & CVS_CALIB_NO_DISTORTION)) {
        cols.push_back(unit(4, 1));
        cols.push_back(unit(5, 1));
        if (!(flags & CVS_CALIB_ZERO_TANGENT)) {
            cols.push_back(unit(6, 1));
            cols.push_back(unit(7, 1));
        }
        if (!(flags & CVS_CALIB_FIX_K3))
            cols.push_back(unit(8, 1));
    }
    const int p = (int)cols.size();
    cv::Mat M(CVS_CALIB_NPARAM, p, CV_64F);
    for (int j = 0; j < p; j++)
        for (int i = 0; i < CVS_CALIB_NPARAM; i++)
            M.at<double>(i, j) = cols[j][i];

    cv::Mat S = cv::Mat::zeros(p, p, CV_64F);
    double ss = 0;
    int n_obs = 0;
    for (size_t v = 0; v < obj.size(); v++) {
        std::vector<cv::Point2d> proj;
        cv::Mat J;
        cv::projectPoints(obj[v], rvecs[v], tvecs[v], K, dist, proj, J);
        const int n = (int)obj[v].size();
        cv::Mat Jt = J.colRange(JAC_INTR, JAC_COLS) * M;  // 2n x p
        cv::Mat E = J.colRange(0, JAC_INTR);               // 2n x 6
        cv::Mat V = E.t() * E, W = Jt.t() * E;
        S += Jt.t() * Jt - W * V.inv(cv::DECOMP_SVD) * W.t();
        for (int i = 0; i < n; i++) {
            double dx = proj[i].x - img[v][i].x, dy = proj[i].y - img[v][i].y;
            ss += dx * dx + dy * dy;
        }
        n_obs += 2 * n;
    }
    // OpenCV's convention for the residual variance (calibration.cpp): the
    // squared errors of both coordinates over (points - free parameters),
    // not over (coordinates - parameters). It is about twice the textbook
    // value; we keep it so that this covariance's diagonal equals OpenCV's
    // stdDeviationsIntrinsics, and the board error estimate errs on the safe side.
    const int dof = n_obs / 2 - p - 6 * (int)obj.size();
    const double sigma2 = dof > 0 ? ss / dof : 0;
    cv::Mat C = M * (S.inv(cv::DECOMP_SVD) * sigma2) * M.t();
    for (int i = 0; i < CVS_CALIB_NPARAM * CVS_CALIB_NPARAM; i++)
        cov[i] = C.at<double>(i / CVS_CALIB_NPARAM, i % CVS_CALIB_NPARAM);
}

// OpenCV's calibrateCamera flags for ours.
static int opencv_calib_flags(unsigned flags)
{
    int cvflags = 0;
    if (flags & CVS_CALIB_FIX_ASPECT)
        cvflags |= cv::CALIB_FIX_ASPECT_RATIO;
    if (flags & CVS_CALIB_ZERO_TANGENT)
        cvflags |= cv::CALIB_ZERO_TANGENT_DIST;
    if (flags & CVS_CALIB_FIX_K3)
        cvflags |= cv::CALIB_FIX_K3;
    if (flags & CVS_CALIB_NO_DISTORTION)
        cvflags |= cv::CALIB_ZERO_TANGENT_DIST | cv::CALIB_FIX_K1 | cv::CALIB_FIX_K2 | cv::CALIB_FIX_K3;
    if (flags & CVS_CALIB_USE_GUESS)
        cvflags |= cv::CALIB_USE_INTRINSIC_GUESS;
    return cvflags;
}

// The solver's starting camera matrix and distortion from the caller's lens.
static void starting_lens(const cvs_lens *L, unsigned flags, cv::Mat &K, cv::Mat &dist)
{
    K = (cv::Mat_<double>(3, 3) << L->fx, 0, L->cx, 0, L->fy, L->cy, 0, 0, 1);
    if (!(flags & CVS_CALIB_USE_GUESS)) {
        // Without a guess OpenCV starts from the image centre; with
        // FIX_ASPECT it only reads fy/fx, so give it 1 unless told.
        if (!(L->fx > 0 && L->fy > 0))
            K = (cv::Mat_<double>(3, 3) << 1, 0, 0, 0, 1, 0, 0, 0, 1);
    }
    dist = cv::Mat::zeros(1, 5, CV_64F);
    if (flags & (CVS_CALIB_USE_GUESS | CVS_CALIB_FIX_K3))
        for (int i = 0; i < 5; i++)
            dist.at<double>(i) = (flags & CVS_CALIB_NO_DISTORTION) ? 0 : L->dist[i];
}

// Each view's RMS, rotation matrix and translation, for the outputs the caller asked for (non-NULL).
static void copy_view_poses(int n_views, const cv::Mat &per_view, const std::vector<cv::Mat> &rvecs,
                            const std::vector<cv::Mat> &tvecs, double *view_rms, double *view_R, double *view_t)
{
    for (int v = 0; v < n_views; v++) {
        if (view_rms)
            view_rms[v] = per_view.at<double>(v);
        if (view_R) {
            cv::Mat rm;
            cv::Rodrigues(rvecs[v], rm);
            for (int i = 0; i < 9; i++)
                view_R[9 * v + i] = rm.at<double>(i / 3, i % 3);
        }
        if (view_t)
            for (int i = 0; i < 3; i++)
                view_t[3 * v + i] = tvecs[v].at<double>(i);
    }
}

extern "C" int cvs_calibrate_camera(int n_views, const int *counts, const double *obj_xyz, const double *img_xy,
                                    int width, int height, unsigned flags, cvs_calib_result *res, double *view_rms,
                                    double *view_R, double *view_t, base_error *err)
{
    if (n_views < 1)
        return base_error_set(err, "calibration: no views");
    try {
        std::vector<std::vector<cv::Point3d>> obj(n_views);
        std::vector<std::vector<cv::Point2d>> img(n_views);
        std::vector<std::vector<cv::Point3f>> objf(n_views);
        std::vector<std::vector<cv::Point2f>> imgf(n_views);
        size_t k = 0;
        for (int v = 0; v < n_views; v++) {
            if (counts[v] < 4)
                return base_error_set(err, "calibration: view %d has %d points (need 4)", v, counts[v]);
            for (int i = 0; i < counts[v]; i++, k++) {
                obj[v].emplace_back(obj_xyz[3 * k], obj_xyz[3 * k + 1], obj_xyz[3 * k + 2]);
                img[v].emplace_back(img_xy[2 * k], img_xy[2 * k + 1]);
                objf[v].emplace_back((float)obj_xyz[3 * k], (float)obj_xyz[3 * k + 1], (float)obj_xyz[3 * k + 2]);
                imgf[v].emplace_back((float)img_xy[2 * k], (float)img_xy[2 * k + 1]);
            }
        }
        cvs_lens *L = &res->lens;
        cv::Mat K, dist;
        starting_lens(L, flags, K, dist);
        std::vector<cv::Mat> rvecs, tvecs;
        cv::Mat std_intr, std_extr, per_view;
        double rms = cv::calibrateCamera(objf, imgf, cv::Size(width, height), K, dist, rvecs, tvecs, std_intr,
                                         std_extr, per_view, opencv_calib_flags(flags),
                                         cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100,
                                                          DBL_EPSILON));
        if (!std::isfinite(rms))
            return base_error_set(err, "calibration: the solver diverged");
        L->fx = K.at<double>(0, 0);
        L->fy = K.at<double>(1, 1);
        L->cx = K.at<double>(0, 2);
        L->cy = K.at<double>(1, 2);
        for (int i = 0; i < 5; i++)
            L->dist[i] = dist.at<double>(i);
        res->rms_px = rms;
        for (int i = 0; i < CVS_CALIB_NPARAM; i++)
            res->std[i] = i < std_intr.rows * std_intr.cols ? std_intr.at<double>(i) : 0;
        cv::Matx33d Kx(L->fx, 0, L->cx, 0, L->fy, L->cy, 0, 0, 1);
        intrinsics_covariance(obj, img, rvecs, tvecs, Kx, dist, flags, res->cov);
        // With FIX_ASPECT OpenCV reports fx's deviation as 0 (it solves for fy);
        // fx still has one, fy / aspect: take it from the covariance.
        for (int i = 0; i < CVS_CALIB_NPARAM; i++)
            if (res->std[i] == 0 && res->cov[i * CVS_CALIB_NPARAM + i] > 0)
                res->std[i] = std::sqrt(res->cov[i * CVS_CALIB_NPARAM + i]);
        copy_view_poses(n_views, per_view, rvecs, tvecs, view_rms, view_R, view_t);
        return 0;
    } catch (const std::exception &e) {
        return base_error_set(err, "calibration: %s", e.what());
    } catch (...) {
        return base_error_set(err, "calibration: unknown failure");
    }
}

extern "C" int cvs_find_homography(const double *src_xy, const double *dst_xy, int n, double ransac_thresh,
                                   double H[9], unsigned char *inliers, base_error *err)
{
    if (n < 4)
        return base_error_set(err, "homography: need at least 4 point pairs, have %d", n);
    try {
        std::vector<cv::Point2d> a(n), b(n);
        for (int i = 0; i < n; i++) {
            a[i] = cv::Point2d(src_xy[2 * i], src_xy[2 * i + 1]);
            b[i] = cv::Point2d(dst_xy[2 * i], dst_xy[2 * i + 1]);
        }
        std::vector<unsigned char> mask;
        cv::Mat h = cv::findHomography(a, b, cv::RANSAC, ransac_thresh, mask, 2000, 0.999);
        if (h.empty())
            return base_error_set(err, "homography: no consistent mapping among %d point pairs", n);
        int count = 0;
        for (int i = 0; i < n; i++) {
            count += mask[i] != 0;
            if (inliers)
                inliers[i] = mask[i] != 0;
        }
        for (int i = 0; i < 9; i++)
            H[i] = h.at<double>(i / 3, i % 3);
        return count;
    } catch (const std::exception &e) {
        return base_error_set(err, "homography: %s", e.what());
    } catch (...) {
        return base_error_set(err, "homography: unknown failure");
    }
}
