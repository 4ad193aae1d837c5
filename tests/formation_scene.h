/*
 * Test tables for formation inference: a roster and the true snapshot of
 * blocks whose incomplete rear rank is centred (as players set them up),
 * while the roster lists each unit front rank first, left to right, so the
 * roster's own slots put the rear rank left-aligned. Exact geometry: bases
 * in contact plus a 0.5 mm gap, no jitter.
 *
 *   fs_table t; fs_table_init(&t, 700, 500);
 *   fs_add_block(&t, "spears", "red", 10, 4, (rules_pose){{350, 300}, BASE_PI / 2});
 *   ... t.roster, t.truth ...; fs_table_clear(&t);
 */
#ifndef TABLEREF_TEST_FORMATION_SCENE_H
#define TABLEREF_TEST_FORMATION_SCENE_H

#include "rules_path.h"
#include "rules_snapshot.h"
#include "roster.h"

#define FS_BASE_W 25.0
#define FS_BASE_D 40.0
#define FS_PITCH_GAP 0.5

typedef struct fs_table {
    roster_file *roster;
    rules_snapshot *truth;
    int next_tag;
} fs_table;

void fs_table_init(fs_table *t, double board_w, double board_d);
void fs_table_clear(fs_table *t);
/*
 * A block of n models `files` wide (25 x 40 mm bases, 16 mm tags 9 mm ahead
 * of the base centre, 4 mm up), Front Facing centred on pose, rear rank
 * centred; models "<id>-1".. listed front rank first, left to right. Rates:
 * Advance 5", March 10". Returns the unit's index.
 */
size_t fs_add_block(fs_table *t, const char *id, const char *side, int n, int files, rules_pose pose);
/* The true place of a block's model by (file position, rank) of a block placed with fs_add_block. */
base_vec2 fs_slot(int n, int files, rules_pose pose, double file_pos, int rank);

#endif
