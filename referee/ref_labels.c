/* ref_labels: the printed labels of a snapshot on the board (see the header). */
#include "ref_labels.h"
#include "rules_relief.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double ref_label_side(const char *family, double tag_size)
{
    /* apriltag's width_at_border (the black square, in cells); the white border adds a cell each side. */
    static const struct {
        const char *name;
        int cells;
    } fams[] = {{"tag36h11", 8}, {"tagStandard41h12", 5}, {"tag25h9", 7}, {"tag16h5", 6}};
    for (size_t i = 0; family && i < sizeof fams / sizeof fams[0]; i++)
        if (strcmp(family, fams[i].name) == 0)
            return tag_size * (fams[i].cells + 2) / fams[i].cells;
    return tag_size * 8 / 6;
}

/* The surface a model stands on: the table's relief under it, or the height its tags read at when that is
 * not settled (a hill the table file leaves out: the projector must still leave its labels dark). */
static double ground_under(const rules_snapshot *snap, const rules_model *m)
{
    rules_unit *u = NULL;
    rules_snapshot_find_model(snap, m->id, &u);
    if (u && rules_unit_height_unsettled(u))
        return fmax(0, u->height_seen_mm);
    return rules_relief_height(snap->terrain, snap->n_terrain, m->pos, NULL);
}

int ref_labels_of(const roster_file *roster, const rules_snapshot *snap, base_label **out, size_t *n, base_error *err)
{
    *out = NULL;
    *n = 0;
    size_t cap = roster->n_models + roster->n_marks + roster->n_board_tags;
    base_label *l = calloc(cap ? cap : 1, sizeof *l);
    if (!l)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < roster->n_models; i++) {
        const roster_model *rm = &roster->models[i];
        const rules_model *m = snap ? rules_snapshot_find_model(snap, rm->id, NULL) : NULL;
        if (!m || rm->unit >= roster->n_units)
            continue;
        const roster_tag_mount *mount = &roster->units[rm->unit].mount;
        base_label *o = &l[k++];
        roster_tag_mount_place(mount, m->pos, m->facing, &o->centre, &o->heading);
        const roster_unit *u = &roster->units[rm->unit];
        /* A rim label (roster_mark.h) covers the base top: the square round it keeps it dark. */
        o->side_mm = mount->layout == ROSTER_MARK_RIM
                         ? (rm->base_width > 0 ? fmax(rm->base_width, rm->base_depth) : fmax(u->base_width, u->base_depth))
                         : ref_label_side(roster->family, mount->size);
        o->height_mm = ground_under(snap, m) + mount->height;
        o->sigma_mm = m->sigma_mm;
    }
    for (size_t i = 0; i < roster->n_marks; i++) {
        const roster_unit_mark *mk = &roster->marks[i];
        const rules_model *m = snap && mk->model < roster->n_models
                                   ? rules_snapshot_find_model(snap, roster->models[mk->model].id, NULL)
                                   : NULL;
        if (!m || mk->kind != ROSTER_UNIT_MARK_MAST)
            continue;
        /* A mast: its tag on a rod above the figures, anywhere within its sway of the declared place. */
        base_label *o = &l[k++];
        roster_tag_mount_place(&mk->mount, m->pos, m->facing, &o->centre, &o->heading);
        o->side_mm = ref_label_side(roster->family, mk->mount.size) + 2 * mk->sway;
        o->height_mm = ground_under(snap, m) + mk->mount.height;
        o->sigma_mm = m->sigma_mm;
    }
    for (size_t i = 0; i < roster->n_board_tags; i++) {
        const roster_board_tag *b = &roster->board_tags[i];
        base_label *o = &l[k++];
        o->centre = base_v2(b->x, b->y);
        o->heading = b->rotation;
        o->side_mm = ref_label_side(roster->family, b->size);
        o->height_mm = b->z;
        o->sigma_mm = 0;
    }
    *out = l;
    *n = k;
    return 0;
}
