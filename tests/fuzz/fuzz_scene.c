/* Fuzz target: the scene reader (ds_scene_from_json), members inline only (no file is opened). */
#include "ds_scene.h"
#include "fuzz.h"
#include "rules_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    base_error err;
    cJSON *root = text ? base_json_parse_string(text, "fuzz.json", &err) : NULL;
    ds_scene *s = root ? ds_scene_from_json(root, "fuzz/scene.json", DS_SCENE_INLINE_ONLY, &err) : NULL;
    ds_scene_free(s);
    cJSON_Delete(root);
    free(text);
    return 0;
}
