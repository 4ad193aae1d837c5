/*
 * vis_mast: masts (roster.h, roster_unit_mark; the map's roster_map_mark)
 * read into their carriers' places. A mast is a square tag carried above
 * the figures on a clear rod standing on one model's base: a decoded mast
 * tag places its carrier exactly as a square tag on the base at the mast's
 * height would (vis_relief_place_tag: on a hill, the surface under the base
 * plus the mast's height; roster_tag_mount_unplace), the same checks made
 * (off the board, wrong size, corners off a square: rough). Its rod may
 * lean the tag off its declared place: the carrier's seen model carries the
 * mast's sway, added to its position sigma (vis_units.c), so no verdict
 * depends on a straight rod. The rest of a ranked unit is placed by its
 * formation (vis_formation.h) around the carriers.
 *
 * A carrier already placed by its base's own mark (a square tag or a rim
 * label, nearer the table and swaying nothing) keeps that place; a tag
 * decoded twice places nothing (vis_detect.c reports it). A unit the rim
 * labels or the hidden-unit reads could not tell the formation of
 * (partial[u]) is told again when every mast of a ranked unit placed its
 * carrier: two front corners fix its files and facing. And a ranked unit
 * whose two front carriers were both read by their masts faces the way the
 * line between them says (its whole front a lever, where one label's or
 * tag's heading is one base): every model of it read takes that facing,
 * when both masts' own headings agree with it within 4 degrees.
 *
 * A mast the blind first pass missed (a spear, a banner or a hand across its
 * tag) is read where its unit, placed by then (a rim label, another mast, its
 * formation), puts it: its carrier's estimated place at the mast's height,
 * searched within the rod's sway and the estimate's sigma (vis_mast_read.h).
 *
 * How to use (vis_detect.c, after the bases' marks are read; image NULL: the decoded tags alone):
 *   size_t placed = vis_mast_place(d, &cam, &image, &paper, tags, n, seen, partial, rep);
 */
#ifndef VIS_MAST_H
#define VIS_MAST_H

#include <stddef.h>

#include "roster_map.h"
#include "base_image.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_recover_common.h"
#include "vis_relief.h"
#include "vis_report.h"
#include "vis_tag.h"
#include "vis_units.h"

/* The carriers the masts among `tags`, and those read where predicted in `im` (may be NULL), placed (seen or rough),
 * into seen[] (one per map model); partial[] (one per unit, may be NULL) cleared as above. paper: this frame's ink
 * and white (vis_recover_paper, measured once a frame). */
size_t vis_mast_place(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                      const vis_tag_detection *tags, size_t n, vis_seen_model *seen, unsigned char *partial,
                      vis_report *rep);

#endif
