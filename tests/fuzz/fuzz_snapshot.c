/* Fuzz target: the snapshot reader (rules_json_to_snapshot). Property: what it accepts, written back, reads back. */
#include "fuzz.h"
#include "rules_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    base_error err;
    cJSON *root = text ? base_json_parse_string(text, "fuzz.json", &err) : NULL;
    rules_snapshot *s = root ? rules_json_to_snapshot(root, "fuzz.json", &err) : NULL;
    if (s) {
        cJSON *back = rules_json_from_snapshot(s);
        rules_snapshot *again = back ? rules_json_to_snapshot(back, "written.json", &err) : NULL;
        if (back && !again)
            abort(); /* the writer wrote what the reader refuses: err.msg says why */
        rules_snapshot_free(again);
        cJSON_Delete(back);
    }
    rules_snapshot_free(s);
    cJSON_Delete(root);
    free(text);
    return 0;
}
