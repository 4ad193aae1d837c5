/* Fuzz target: the roster reader (roster_from_json). Property: what it accepts, written back, reads back. */
#include "fuzz.h"
#include "rules_json.h"
#include "roster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    base_error err;
    cJSON *root = text ? base_json_parse_string(text, "fuzz.json", &err) : NULL;
    roster_file *r = root ? roster_from_json(root, "fuzz.json", &err) : NULL;
    if (r) {
        for (size_t i = 0; i < r->n_models; i++)
            if (roster_find_model_tag(r, r->models[i].tag_id) != &r->models[i])
                abort(); /* tag ids are unique: each finds its own model */
        cJSON *back = roster_to_json(r);
        roster_file *again = back ? roster_from_json(back, "written.json", &err) : NULL;
        if (back && !again)
            abort();
        roster_free(again);
        cJSON_Delete(back);
    }
    roster_free(r);
    cJSON_Delete(root);
    free(text);
    return 0;
}
