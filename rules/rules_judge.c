#include "rules_judge.h"

#include <stdlib.h>
#include <string.h>

#include "rules_move_int.h"

struct rules_judge {
    rules_table t0, t1;      /* t1 unused (t0 stands for both) when there is no after snapshot */
    bool has_after;
    size_t i0, i1;           /* the unit in each table; i1 RULES_TABLE_NONE when it is not in after */
    rules_unit moved;        /* the unit at the position being judged: its own models array */
    rules_ruleset rs;
    rules_check_options opt;
    size_t *pairs;
};

void rules_judge_free(rules_judge *j)
{
    if (!j)
        return;
    rules_table_clear(&j->t0);
    if (j->has_after)
        rules_table_clear(&j->t1);
    free(j->moved.models);
    free(j->pairs);
    free(j);
}

rules_judge *rules_judge_new(const rules_snapshot *before, const rules_snapshot *after, const char *unit_id,
                             const rules_check_options *opt, base_error *err)
{
    rules_judge *j = calloc(1, sizeof *j);
    if (!j) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (opt)
        j->opt = *opt;
    else
        rules_check_options_default(&j->opt);
    j->opt.unit_id = NULL;
    j->opt.move = RULES_MOVE_AUTO;
    const rules_snapshot *table = after ? after : before;
    j->rs = before->ruleset_given || !table->ruleset_given ? before->ruleset : table->ruleset;
    if (rules_table_build(&j->t0, before, &j->opt.formation, NULL, err) < 0) {
        free(j);
        return NULL;
    }
    j->has_after = after != NULL;
    if (after && rules_table_build(&j->t1, after, &j->opt.formation, &j->t0, err) < 0) {
        j->has_after = false;
        rules_judge_free(j);
        return NULL;
    }
    j->i0 = rules_table_find(&j->t0, unit_id);
    if (j->i0 == RULES_TABLE_NONE) {
        base_error_set(err, "unit %s is not in the before snapshot", unit_id);
        rules_judge_free(j);
        return NULL;
    }
    j->i1 = after ? rules_table_find(&j->t1, unit_id) : j->i0;
    const rules_unit *u = &before->units[j->i0];
    j->moved = *u;
    j->moved.models = malloc(u->n_models * sizeof *j->moved.models);
    j->pairs = malloc(2 * u->n_models * sizeof *j->pairs);
    if (!j->moved.models || !j->pairs) {
        j->moved.models = NULL;
        base_error_set(err, "out of memory");
        rules_judge_free(j);
        return NULL;
    }
    memcpy(j->moved.models, u->models, u->n_models * sizeof *u->models);
    j->moved.cap_models = u->n_models;
    return j;
}

const rules_unit *rules_judge_unit(const rules_judge *j)
{
    return &j->t0.s->units[j->i0];
}

const rules_formation *rules_judge_formation(const rules_judge *j)
{
    return &j->t0.fits[j->i0];
}

const rules_ruleset *rules_judge_ruleset(const rules_judge *j)
{
    return &j->rs;
}

rules_pose rules_judge_start(const rules_judge *j)
{
    const rules_formation *f = rules_judge_formation(j);
    return (rules_pose){f->front_centre, f->heading};
}

void rules_judge_place(const rules_judge *j, rules_pose p, base_vec2 *pos, double *turn)
{
    const rules_unit *u = rules_judge_unit(j);
    rules_pose p0 = rules_judge_start(j);
    double t = p.heading - p0.heading, c = cos(t), s = sin(t);
    for (size_t k = 0; k < u->n_models; k++) {
        base_vec2 r = base_v2_sub(u->models[k].pos, p0.front_centre);
        pos[k] = base_v2(p.front_centre.x + c * r.x - s * r.y, p.front_centre.y + s * r.x + c * r.y);
    }
    *turn = base_angle_wrap(t);
}

int rules_judge_report(rules_judge *j, const base_vec2 *pos, double turn, rules_move_type type,
                       rules_unit_report *ur, base_error *err)
{
    const rules_unit *u0 = rules_judge_unit(j);
    for (size_t k = 0; k < u0->n_models; k++) {
        j->moved.models[k].pos = pos[k];
        j->moved.models[k].facing = base_angle_wrap(u0->models[k].facing + turn);
    }
    j->moved.n_models = u0->n_models;
    const rules_table *t1 = j->has_after ? &j->t1 : &j->t0;
    rules_move_ctx c = {.t0 = &j->t0, .t1 = t1, .i0 = j->i0, .i1 = j->i1, .u0 = u0, .u1 = &j->moved,
                        .f0 = j->t0.fits[j->i0], .rs = &j->rs, .opt = &j->opt};
    rules_unit_report_init(ur, u0->id, u0->side, RULES_MOVE_NONE, false);
    if (rules_formation_fit(&j->moved, &j->opt.formation, &c.f1, NULL) < 0)
        return base_error_set(err, "unit %s has no models", u0->id);
    rules_move_ctx_prepare(&c, j->pairs);
    return rules_move_ctx_judge(&c, type, type != RULES_MOVE_AUTO, ur, err);
}

bool rules_judge_legal(rules_judge *j, const base_vec2 *pos, double turn, rules_move_type type)
{
    rules_unit_report ur;
    bool legal = rules_judge_report(j, pos, turn, type, &ur, NULL) == 0 && ur.verdict == RULES_VERDICT_LEGAL;
    rules_unit_report_clear(&ur);
    return legal;
}
