#include "fixtures.h"

#include <string.h>

rules_unit *fx_block(rules_snapshot *s, const char *id, const char *side, double base_mm, int files, int n_models,
                     rules_pose pose, double advance_in, double march_in)
{
    rules_unit *u = rules_snapshot_add_unit(s, id, side);
    u->base_width = u->base_depth = base_mm;
    u->advance_rate = advance_in > 0 ? base_in_to_mm(advance_in) : NAN;
    u->march_rate = march_in > 0 ? base_in_to_mm(march_in) : NAN;
    rules_formation_place(u, pose.front_centre, pose.heading, files, n_models);
    return u;
}

/* Rigid motion taking pose a to pose b, applied to p. */
static base_vec2 carry(rules_pose a, rules_pose b, base_vec2 p)
{
    base_vec2 rel = base_v2_rot(base_v2_sub(p, a.front_centre), b.heading - a.heading);
    return base_v2_add(b.front_centre, rel);
}

static rules_unit *copy_with_pose(rules_snapshot *after, const rules_unit *u, rules_pose a, rules_pose b)
{
    rules_unit *c = rules_snapshot_add_unit(after, u->id, u->side);
    rules_model *keep = c->models;
    *c = *u;
    c->models = keep;
    c->n_models = c->cap_models = 0;
    for (size_t j = 0; j < u->n_models; j++) {
        rules_model *m = rules_unit_add_model(c, u->models[j].id, carry(a, b, u->models[j].pos),
                                              base_angle_wrap(u->models[j].facing + b.heading - a.heading));
        m->status = u->models[j].status;
    }
    return c;
}

rules_unit *fx_moved_copy(rules_snapshot *after, const rules_unit *u, rules_pose start, const rules_path *path)
{
    double width = 0;
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    width = f.boundary.width;
    return copy_with_pose(after, u, start, rules_path_apply(start, path, width));
}

rules_unit *fx_shifted_copy(rules_snapshot *after, const rules_unit *u, rules_pose start, base_vec2 d, double angle)
{
    rules_pose b = {base_v2_add(start.front_centre, d), start.heading + angle};
    return copy_with_pose(after, u, start, b);
}

rules_path fx_path(size_t n, const rules_step *steps)
{
    rules_path p;
    memset(&p, 0, sizeof p);
    for (size_t i = 0; i < n && i < RULES_PATH_MAX_STEPS; i++) {
        p.steps[p.n_steps++] = steps[i];
        p.length_mm += steps[i].length_mm;
    }
    return p;
}

rules_step fx_wheel(rules_step_kind kind, double inches, double front_mm)
{
    double angle = base_in_to_mm(inches) / front_mm;
    return (rules_step){kind, base_in_to_mm(inches), kind == RULES_STEP_WHEEL_LEFT ? angle : -angle};
}

rules_step fx_forward(double inches)
{
    return (rules_step){RULES_STEP_FORWARD, base_in_to_mm(inches), 0};
}

void fx_seed_wheel_example(char figure, rules_snapshot **before, rules_snapshot **after)
{
    *before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    *after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_pose start = {base_v2(900, 300), BASE_PI / 2};
    rules_unit *u;
    rules_path p;
    switch (figure) {
    case 'a': {
        /* March Rate 12": forwards 3", wheel 6" (outer corner), forwards 2": 11" in all. */
        u = fx_block(*before, "regiment", "red", 25, 5, 20, start, 6, 12);
        double w = 5 * 25;
        rules_step s[] = {fx_forward(3), fx_wheel(RULES_STEP_WHEEL_RIGHT, 6, w), fx_forward(2)};
        p = fx_path(3, s);
        break;
    }
    case 'b': {
        /* March Rate 10": forwards 3", wheel 5": the corner moved 8" but rear models end beyond 10". */
        u = fx_block(*before, "regiment", "red", 25, 3, 18, start, 5, 10);
        double w = 3 * 25;
        rules_step s[] = {fx_forward(3), fx_wheel(RULES_STEP_WHEEL_RIGHT, 5, w)};
        p = fx_path(2, s);
        break;
    }
    default: {
        /* March Rate 16": forwards 2", two 4" wheels (almost about-face), forwards 4", a 1.5" wheel. */
        u = fx_block(*before, "regiment", "red", 25, 3, 6, start, 8, 16);
        double w = 3 * 25;
        rules_step s[] = {fx_forward(2), fx_wheel(RULES_STEP_WHEEL_LEFT, 4, w), fx_wheel(RULES_STEP_WHEEL_LEFT, 4, w),
                          fx_forward(4), fx_wheel(RULES_STEP_WHEEL_LEFT, 1.5, w)};
        p = fx_path(5, s);
        break;
    }
    }
    fx_moved_copy(*after, u, start, &p);
}
