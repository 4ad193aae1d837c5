/* roster_map: what the camera needs of a roster (see the header). */
#include "roster_map.h"

#include <stdlib.h>
#include <string.h>

int roster_family_codes(const char *family)
{
    /* apriltag's own counts (tests/test_vision_tags.c holds them to the detector's). */
    if (family && strcmp(family, "tag36h11") == 0)
        return 587;
    if (family && strcmp(family, "tagStandard41h12") == 0)
        return 2115;
    return 0;
}

void roster_tag_mount_place(const roster_tag_mount *m, base_vec2 pos, double facing, base_vec2 *tag_centre,
                            double *tag_heading)
{
    *tag_centre = base_v2_add(pos, base_v2_rot(m->offset, facing));
    *tag_heading = base_angle_wrap(facing + m->rotation);
}

void roster_tag_mount_unplace(const roster_tag_mount *m, base_vec2 tag_centre, double tag_heading, base_vec2 *pos,
                              double *facing)
{
    *facing = base_angle_wrap(tag_heading - m->rotation);
    *pos = base_v2_sub(tag_centre, base_v2_rot(m->offset, *facing));
}

void roster_map_free(roster_map *m)
{
    if (!m)
        return;
    free(m->units);
    free(m->models);
    free(m->board_tags);
    free(m->marks);
    rules_snapshot_free(m->start);
    free(m);
}

/* A copy of n items of `size` bytes (room for one when n is 0); NULL when out of memory. */
static void *copy_of(const void *from, size_t n, size_t size)
{
    void *to = malloc((n ? n : 1) * size);
    if (to && n)
        memcpy(to, from, n * size);
    return to;
}

roster_map *roster_map_clone(const roster_map *m)
{
    roster_map *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->units = copy_of(m->units, m->n_units, sizeof *m->units);
    c->models = copy_of(m->models, m->n_models, sizeof *m->models);
    c->board_tags = copy_of(m->board_tags, m->n_board_tags, sizeof *m->board_tags);
    c->marks = copy_of(m->marks, m->n_marks, sizeof *m->marks);
    c->start = m->start ? rules_snapshot_clone(m->start) : NULL;
    if (!c->units || !c->models || !c->board_tags || !c->marks || (m->start && !c->start)) {
        roster_map_free(c);
        return NULL;
    }
    return c;
}

const roster_map_model *roster_map_find_model_tag(const roster_map *m, int id)
{
    for (size_t i = 0; i < m->n_models; i++)
        if (m->models[i].tag_id == id)
            return &m->models[i];
    return NULL;
}

const roster_map_mark *roster_map_find_mark_tag(const roster_map *m, int id)
{
    for (size_t i = 0; i < m->n_marks; i++)
        if (m->marks[i].tag_id == id)
            return &m->marks[i];
    return NULL;
}

const roster_board_tag *roster_map_find_board_tag(const roster_map *m, int id)
{
    for (size_t i = 0; i < m->n_board_tags; i++)
        if (m->board_tags[i].id == id)
            return &m->board_tags[i];
    return NULL;
}

rules_snapshot *roster_map_new_snapshot(const roster_map *m)
{
    return m->start ? rules_snapshot_clone(m->start) : rules_snapshot_new(m->board_width, m->board_depth);
}

void roster_map_model_apply(const roster_map_model *rm, rules_model *m)
{
    m->base_width = rm->base_width;
    m->base_depth = rm->base_depth;
    m->attachable = m->attachable || rm->attachable;
}
