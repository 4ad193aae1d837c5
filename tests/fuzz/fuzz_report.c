/*
 * Fuzz target: from two untrusted snapshots to the report, as `tableref
 * check` does. tableref reads no report (it only writes report.json), so the
 * report path fuzzed is the one that makes it: the input is two snapshots
 * separated by a NUL byte; when both read, the move is judged
 * (rules_move_check) and the report written (rules_report_to_json), which
 * must parse back as JSON.
 */
#include "fuzz.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_report.h"

static rules_snapshot *read_snapshot(const uint8_t *data, size_t size, const char *name)
{
    char *text = fuzz_text(data, size);
    base_error err;
    cJSON *root = text ? base_json_parse_string(text, name, &err) : NULL;
    rules_snapshot *s = root ? rules_json_to_snapshot(root, name, &err) : NULL;
    cJSON_Delete(root);
    free(text);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    if (!nul)
        return 0;
    rules_snapshot *before = read_snapshot(data, (size_t)(nul - data), "before.json");
    rules_snapshot *after = before ? read_snapshot(nul + 1, size - (size_t)(nul - data) - 1, "after.json") : NULL;
    if (before && after) {
        rules_check_options opt;
        rules_check_options_default(&opt);
        rules_report r;
        rules_report_init(&r);
        base_error err;
        if (rules_move_check(before, after, &opt, &r, &err) == 0) {
            cJSON *j = rules_report_to_json(&r);
            char *printed = j ? cJSON_PrintUnformatted(j) : NULL;
            cJSON *back = printed ? cJSON_Parse(printed) : NULL;
            if (j && printed && !back)
                abort(); /* the report is not JSON */
            cJSON_Delete(back);
            free(printed);
            cJSON_Delete(j);
        }
        rules_report_clear(&r);
    }
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    return 0;
}
