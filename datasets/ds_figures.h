/*
 * ds_figures: the miniatures on every base and the hands over the table,
 * drawn into ds_render's canvas (ds_canvas.h) in the style p->style asks
 * for: stacked discs and flat hands (classic), or 3D solids (real,
 * ds_solid.h), and over each level's figures the masts its models carry
 * (ds_marks.h; drawn also when figures are not). Internal to datasets/.
 *
 * How to use (ds_render.c, after the flat things are drawn):
 *   if (ds_draw_figures(&canvas, snap, roster, p) < 0 || ds_draw_hands(&canvas, snap, roster, p, &rng) < 0)
 *       ... canvas.err says why
 */
#ifndef DS_FIGURES_H
#define DS_FIGURES_H

#include "ds_canvas.h"

/* Which miniatures: all, those standing on the board, those standing on the relief (a hill). */
typedef enum ds_level { DS_LEVEL_ALL = 0, DS_LEVEL_BOARD, DS_LEVEL_RAISED } ds_level;

/* The miniatures on every base, far ones first, each on the surface under its base (ds_terrain.h). */
int ds_draw_figures(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p);
/* Those of one level only (the renderer draws the board's, then the relief, then the relief's). */
int ds_draw_figures_level(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster,
                          const ds_render_params *p, ds_level level);
/* The hands over the table; `r` is the renderer's random stream (the classic style's hands draw from it). */
int ds_draw_hands(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p,
                  ds_rng *r);

#endif
