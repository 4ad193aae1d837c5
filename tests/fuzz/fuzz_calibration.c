/* Fuzz target: the calibration file reader (calib_file_from_json_ex, board pose optional). Property: what it
 * accepts, written back, reads back. */
#include "calib_file.h"
#include "fuzz.h"
#include "base_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    base_error err;
    cJSON *root = text ? base_json_parse_string(text, "fuzz.json", &err) : NULL;
    calib_file c;
    if (root && calib_file_from_json_ex(root, "fuzz.json", CALIB_FILE_POSE_OPTIONAL, &c, &err) == 0) {
        double centre[3];
        if (!c.pose_missing)
            calib_file_camera_centre(&c, centre);
        /* Property: what the writer writes, the reader reads back. */
        cJSON *back = calib_file_to_json(&c);
        calib_file again;
        if (back && calib_file_from_json_ex(back, "written.json", CALIB_FILE_POSE_OPTIONAL, &again, &err) < 0)
            abort();
        cJSON_Delete(back);
    }
    cJSON_Delete(root);
    free(text);
    return 0;
}
