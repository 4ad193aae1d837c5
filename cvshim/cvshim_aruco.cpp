// OpenCV contrib 4.6 ArUco, only as the benchmark's second opinion.
#include <cstdlib>
#include <exception>
#include <vector>

#include <opencv2/aruco.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

extern "C" int cvs_aruco_detect_36h11(const cvs_image *img, double min_perimeter_rate, int subpix,
                                      cvs_marker **out, size_t *n, rules_error *err)
{
    *out = nullptr;
    *n = 0;
    try {
        auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_APRILTAG_36h11);
        auto params = cv::aruco::DetectorParameters::create();
        params->minMarkerPerimeterRate = min_perimeter_rate;
        if (subpix)
            params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
        std::vector<std::vector<cv::Point2f>> corners;
        std::vector<int> ids;
        cv::aruco::detectMarkers(cvs_view(img), dict, corners, ids, params);
        if (ids.empty())
            return 0;
        cvs_marker *m = static_cast<cvs_marker *>(calloc(ids.size(), sizeof *m));
        if (!m)
            return rules_error_set(err, "out of memory");
        for (size_t i = 0; i < ids.size(); i++) {
            m[i].id = ids[i];
            for (int k = 0; k < 4; k++) {
                m[i].corners[k][0] = corners[i][k].x;
                m[i].corners[k][1] = corners[i][k].y;
            }
        }
        *out = m;
        *n = ids.size();
        return 0;
    } catch (const std::exception &e) {
        return rules_error_set(err, "ArUco detection failed: %s", e.what());
    } catch (...) {
        return rules_error_set(err, "ArUco detection failed");
    }
}
