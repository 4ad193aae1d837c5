/*
 * vis_mast_read: masts the blind first pass missed (a spear, a banner or a
 * hand across the tag breaks its black square), read where they must be.
 * Once a unit is placed (a rim label, one mast, its formation), each of its
 * masts not yet read has a predicted place: its carrier's estimated base
 * centre and facing, the mast's offset and rotation on that base, at its
 * height over the surface the base stands on (vis_relief_tag_z). There the
 * tag is read by its pattern (vis_tagread_at, as free places and partly
 * hidden square tags are, vis_recover.h), searched within the rod's sway and
 * the carrier's estimated uncertainty, and kept only when it names that
 * mast's tag decisively (vis_detect_config read_*). Part of vis_mast (not the
 * vision library's interface).
 *
 * How to use (vis_mast.c; mast[] one entry per roster mark, filled by the blind reads):
 *   int added = vis_mast_read_predicted(d, &cam, &image, &paper, tags, n, estimate, mast, rep);
 */
#ifndef VIS_MAST_READ_H
#define VIS_MAST_READ_H

#include <stddef.h>

#include "base_image.h"
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_recover_common.h"
#include "vis_report.h"
#include "vis_tag.h"
#include "vis_units.h"

/* A predicted read searches at most this far from the carrier's estimated place (mm): a mast further off is not
 * where its unit's formation says, and the estimate is not worth reading around. */
#define VIS_MAST_READ_MAX_SEARCH_MM 12.0

/*
 * Reads each mark k whose mast[k] is not seen (not read, or read rough: corners off a square) and whose tag was not
 * decoded more than once, where `estimate` (the units built from the models placed so far) puts its carrier: mast[k]
 * becomes seen at the read pose (VIS_ISSUE_READ in the report), its sway and height set. Returns the masts read, or
 * -1 when out of memory.
 */
int vis_mast_read_predicted(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                            const vis_tag_detection *tags, size_t n, const rules_snapshot *estimate,
                            vis_seen_model *mast, vis_report *rep);

#endif
