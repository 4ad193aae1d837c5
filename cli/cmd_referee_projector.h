/*
 * cmd_referee_projector: where `tableref referee` draws projector.png: the file --projector names read (a calibration
 * file's "projector" section, or a plain mapping), a section made for another camera calibration or frame size
 * refused. With no projector known the referee draws no projector.png.
 *
 * How to use:
 *   double H[9]; int w = 1280, h = 800; calib_projector section;
 *   if (ref_cli_load_projector(path, H, &w, &h, &section, &err) < 0) ... err names the file and field ...
 *   if (ref_cli_check_projector_fresh(path, &section, &camera, after_snap, frame_w, frame_h, &err) < 0) ... refused
 */
#ifndef CMD_REFEREE_PROJECTOR_H
#define CMD_REFEREE_PROJECTOR_H

#include "base_error.h"
#include "calib_file.h"
#include "rules_snapshot.h"

/* A calibration file's projector section (refused when it has none; into *section) or a mapping file {"width",
 * "height", "H": [9]} (section->present = 0): H (board mm -> projector px) and the frame's size. 0, or -1. */
int ref_cli_load_projector(const char *path, double H[9], int *w, int *h, calib_projector *section, base_error *err);
/* A section made through another camera calibration, or for frames of another size, is refused; one without a
 * stamp is used with a warning on stderr. 0, or -1. */
int ref_cli_check_projector_fresh(const char *path, const calib_projector *section, const calib_file *camera,
                                  const rules_snapshot *snap, int frame_w, int frame_h, base_error *err);

#endif
