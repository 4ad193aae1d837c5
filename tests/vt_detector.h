/*
 * vt_detector: a vision detector straight from a roster, for the vision
 * test suites: vision takes only the roster's map (roster/roster_map.h), so
 * the map is made here, handed over (the detector keeps its own copy) and
 * freed.
 *
 *   vis_detector *d = vt_detector_new(scene->roster, &scene->calib, &err);   // NULL: err says why
 *   ... vis_detector_free(d);
 */
#ifndef VT_DETECTOR_H
#define VT_DETECTOR_H

#include "roster.h"
#include "vis_detect.h"

static inline vis_detector *vt_detector_new(const roster_file *r, const calib_file *c, base_error *err)
{
    roster_map *m = roster_map_new(r, err);
    vis_detector *d = m ? vis_detector_new(m, c, err) : NULL;
    roster_map_free(m);
    return d;
}

#endif
