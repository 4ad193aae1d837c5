/*
 * ref_snapshot_int: what a reading saw of its picture (vision's reading,
 * vis_reread.h: the tags, the detection's notes, the tags' patches; its
 * snapshot moves to ref_snapshot.snap), shared by ref_snapshot.c and
 * ref_snapshot_checks.c. Not part of the referee library's interface.
 */
#ifndef REF_SNAPSHOT_INT_H
#define REF_SNAPSHOT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "ref_snapshot.h"
#include "vis_reread.h"

struct ref_seen {
    vis_reading read;       /* its snap is NULL: the reading's snapshot is ref_snapshot.snap */
};

#endif
