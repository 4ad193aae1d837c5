/* The referee's projector: --projector's file read and a stale one refused (cmd_referee_projector.h). */
#include "cmd_referee_projector.h"

#include <stdio.h>
#include <string.h>

#include "base_fields.h"
#include "base_json.h"

/*
 * --projector P: a calibration file (its "projector" section; a file without one is refused), or a small
 * mapping file {"width": W, "height": H, "H": [9 numbers]} (no residual, no stamp: the keep-out takes
 * the documented default margins). The section goes to *section (present = 0 for a mapping file).
 */
int ref_cli_load_projector(const char *path, double H[9], int *w, int *h, calib_projector *section, base_error *err)
{
    static const char *const mapping_keys[] = {"width", "height", "H", NULL};
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return -1;
    int rc = -1;
    memset(section, 0, sizeof *section);
    const cJSON *fmt = base_json_field(root, "format");
    if (cJSON_IsString(fmt) && strcmp(fmt->valuestring, CALIB_FILE_FORMAT) == 0) {
        calib_file c;
        if (calib_file_from_json_ex(root, path, CALIB_FILE_POSE_OPTIONAL, &c, err) < 0)
            ;
        else if (!c.projector.present)
            base_error_set(err, "%s: projector: missing: this calibration has no projector section (run `tableref "
                           "calibrate projector`)", path);
        else {
            *section = c.projector;
            memcpy(H, c.projector.H, 9 * sizeof *H);
            *w = c.projector.width, *h = c.projector.height;
            rc = 0;
        }
    } else if (base_fields_known(root, "", mapping_keys, err) < 0 || base_json_int(root, "width", "", true, w, err) < 0 ||
               base_json_int(root, "height", "", true, h, err) < 0 || base_json_numbers(root, "H", "", true, H, 9, err) < 0)
        base_error_prefix(err, path);
    else if (*w <= 0 || *h <= 0 || *w > 16384 || *h > 16384)
        base_error_set(err, "%s: width, height: must be 1..16384", path);
    else
        rc = 0;
    cJSON_Delete(root);
    return rc;
}

/* A projector section made through another camera calibration than the one in use, or for frames of
 * another size, is refused (calib_file_projector_stale's rule); one without a stamp is used with a warning. */
int ref_cli_check_projector_fresh(const char *path, const calib_projector *section, const calib_file *camera,
                                 const rules_snapshot *snap, int frame_w, int frame_h, base_error *err)
{
    if (!section->present)
        return 0;
    calib_file c = *camera;
    c.projector = *section;
    char why[256];
    int s = calib_file_projector_stale(&c, frame_w, frame_h, snap->board_width, snap->board_depth, why, sizeof why);
    if (s == CALIB_PROJ_UNSTAMPED) {
        fprintf(stderr, "tableref referee: %s: warning: %s\n", path, why);
        return 0;
    }
    if (s != CALIB_PROJ_OK)
        return base_error_set(err, "%s: projector: %s", path, why);
    return 0;
}
