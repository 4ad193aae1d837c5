#include "formation_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FS_MAX_UNITS = 16, FS_MAX_MODELS = 256 };

void fs_table_init(fs_table *t, double board_w, double board_d)
{
    memset(t, 0, sizeof *t);
    roster_file *r = calloc(1, sizeof *r);
    r->units = calloc(FS_MAX_UNITS, sizeof *r->units);
    r->models = calloc(FS_MAX_MODELS, sizeof *r->models);
    r->board_tags = calloc(4, sizeof *r->board_tags);
    snprintf(r->family, sizeof r->family, "tag36h11");
    r->board_width = board_w, r->board_depth = board_d;
    const double in = 30, xy[4][2] = {{in, in}, {board_w - in, in}, {board_w - in, board_d - in}, {in, board_d - in}};
    for (int i = 0; i < 4; i++)
        r->board_tags[r->n_board_tags++] = (roster_board_tag){i, xy[i][0], xy[i][1], 0, 0, 30};
    t->roster = r;
    t->truth = rules_snapshot_new(board_w, board_d);
    t->next_tag = 10;
}

void fs_table_clear(fs_table *t)
{
    roster_free(t->roster);
    rules_snapshot_free(t->truth);
    memset(t, 0, sizeof *t);
}

base_vec2 fs_slot(int n, int files, rules_pose pose, double file_pos, int rank)
{
    (void)n;
    const double pw = FS_BASE_W + FS_PITCH_GAP, pd = FS_BASE_D + FS_PITCH_GAP;
    const base_frame f = {pose.front_centre, pose.heading};
    return base_frame_to_board(f, base_v2((file_pos - (files - 1) / 2.0) * pw, -pd / 2 - rank * pd));
}

size_t fs_add_block(fs_table *t, const char *id, const char *side, int n, int files, rules_pose pose)
{
    roster_file *r = t->roster;
    const size_t ui = r->n_units++;
    roster_unit *u = &r->units[ui];
    snprintf(u->id, sizeof u->id, "%s", id);
    snprintf(u->side, sizeof u->side, "%s", side);
    u->base_width = FS_BASE_W, u->base_depth = FS_BASE_D;
    u->advance_rate = base_in_to_mm(5), u->march_rate = base_in_to_mm(10), u->mobility = NAN;
    u->files = files;
    u->mount = (roster_tag_mount){base_v2(9, 0), 0, 4, 16};
    u->first_model = r->n_models;
    rules_unit *su = rules_snapshot_add_unit(t->truth, id, side);
    su->base_width = FS_BASE_W, su->base_depth = FS_BASE_D;
    su->advance_rate = u->advance_rate, su->march_rate = u->march_rate;
    const int ranks = (n + files - 1) / files;
    for (int k = 0; k < n; k++) {
        int rank = k / files, file = k % files;
        int in_rank = rank == ranks - 1 ? n - rank * files : files;
        double pos = file + (files - in_rank) / 2.0; /* the rear rank centred */
        roster_model *m = &r->models[r->n_models++];
        snprintf(m->id, sizeof m->id, "%.40s-%d", id, k + 1);
        m->tag_id = t->next_tag++;
        m->unit = ui;
        m->file = file, m->rank = rank; /* the roster's slot: listing order, rear rank left-aligned */
        u->n_models++;
        rules_unit_add_model(su, m->id, fs_slot(n, files, pose, pos, rank), pose.heading);
    }
    return ui;
}
