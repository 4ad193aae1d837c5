/*
 * ds_loop_source: the closed-loop table simulator (ds_loop.h) as a row of
 * capture's table of sources: `sim:SEQ.json`, the game turn SEQ.json
 * (`tableref render-sequence`) rendered frame by frame and lit by what the
 * watch projects. capture/ stands beneath datasets/ and never includes it,
 * so the row is registered from above: the program calls
 * ds_loop_source_register at its start (cli/tableref.c), as a libcamera
 * pipeline handler registers itself. From then on every reader of the
 * table takes `sim:` sources: cap_source_open, a table file's "source" (its
 * SEQ.json read from the table's folder), the watch's help.
 *
 * A sim: source is a simulation (cap_source_is_simulated), timed index /
 * fps; it reads cap_source_config's sim_light (the projector's white
 * against the room's light, DS_LIGHT_RATIO_DEFAULT when < 0) and
 * sim_frames (a folder, created, that gets every frame). It sees the
 * projector (cap_source_project: ds_loop_project) and brings its whole
 * table (CAP_ROW_OWN_SETUP): the scene's camera with its projector section,
 * its roster and its terrain, which ds_loop_source_setup hands over.
 *
 * How to use:
 *   ds_loop_source_register(&err);                       // once, at the program's start
 *   cap_source_config cfg; cap_source_config_default(&cfg); cfg.sim_light = 2.5;
 *   cap_source *cap = cap_source_open("sim:datasets/sequences/turn/sequence.json", &cfg, &err);
 *   ds_loop_setup su;
 *   ds_loop_source_setup(cap, &su);                      // su.camera, su.roster, su.table's terrain: the watch's set-up
 *   cfg.project = cap_source_project; cfg.project_ctx = cap;   // watch_session_config: the loop closed
 *   ... watch_session_run(s, cap, NULL) ...
 *   cap_source_close(cap);                               // frees the loop, its sequence and its camera
 */
#ifndef DS_LOOP_SOURCE_H
#define DS_LOOP_SOURCE_H

#include "base_error.h"
#include "cap_rows.h"
#include "cap_source.h"
#include "calib_file.h"
#include "ds_loop.h"
#include "roster.h"

/* The row: scheme "sim". */
extern const cap_row ds_loop_source_row;

/* Adds the row to capture's table (again is fine). 0 or -1. */
int ds_loop_source_register(base_error *err);

/* What a sim: source brings besides its frames; all owned by the source. */
typedef struct ds_loop_setup {
    const calib_file *camera;   /* the scene's camera with its projector section (the simulated one unless it
                                   has one) */
    const roster_file *roster;   /* the scene's roster */
    ds_loop *loop;              /* the simulator (ds_loop_frames_lit, ...) */
    const rules_snapshot *table; /* the scene's starting table: its terrain (hills and all) is the watch's */
} ds_loop_setup;

/* 0 and *out when c is a sim: source; -1 otherwise. */
int ds_loop_source_setup(const cap_source *c, ds_loop_setup *out);

#endif
