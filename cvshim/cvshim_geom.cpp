// Camera geometry from OpenCV's calib3d.
#include <cmath>
#include <exception>
#include <vector>

#include <opencv2/calib3d.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

extern "C" int cvs_solve_pnp(const double *obj_xyz, const double *img_xy, int n, const cvs_lens *lens,
                             int use_guess, double R[9], double t[3], base_error *err)
{
    if (n < 4)
        return base_error_set(err, "pose: need at least 4 points, have %d", n);
    try {
        std::vector<cv::Point3d> obj(n);
        std::vector<cv::Point2d> im(n);
        for (int i = 0; i < n; i++) {
            obj[i] = cv::Point3d(obj_xyz[3 * i], obj_xyz[3 * i + 1], obj_xyz[3 * i + 2]);
            im[i] = cv::Point2d(img_xy[2 * i], img_xy[2 * i + 1]);
        }
        cv::Matx33d K(lens->fx, 0, lens->cx, 0, lens->fy, lens->cy, 0, 0, 1);
        cv::Mat dist(1, 5, CV_64F, const_cast<double *>(lens->dist));
        cv::Mat rvec, tvec(3, 1, CV_64F);
        if (use_guess) {
            cv::Matx33d r(R);
            cv::Rodrigues(cv::Mat(r), rvec);
            for (int i = 0; i < 3; i++)
                tvec.at<double>(i) = t[i];
        }
        if (!cv::solvePnP(obj, im, K, dist, rvec, tvec, use_guess != 0, cv::SOLVEPNP_ITERATIVE))
            return base_error_set(err, "pose: solvePnP found no solution");
        cv::Mat rm;
        cv::Rodrigues(rvec, rm);
        for (int i = 0; i < 9; i++)
            R[i] = rm.at<double>(i / 3, i % 3);
        for (int i = 0; i < 3; i++)
            t[i] = tvec.at<double>(i);
        for (int i = 0; i < 3; i++)
            if (!std::isfinite(t[i]))
                return base_error_set(err, "pose: solvePnP diverged");
        return 0;
    } catch (const std::exception &e) {
        return base_error_set(err, "pose: %s", e.what());
    } catch (...) {
        return base_error_set(err, "pose: unknown failure");
    }
}
