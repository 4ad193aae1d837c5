#include "venue_command.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base_text.h"

bool venue_command_judge_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 32 || strncmp(name, "table-", 6) == 0)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            return false;
    return true;
}

const char *venue_cmd_word(venue_cmd_action a)
{
    switch (a) {
    case VENUE_CMD_OVERRULE: return "overrule";
    case VENUE_CMD_CONFIRM: return "confirm";
    case VENUE_CMD_UNDO: return "undo";
    case VENUE_CMD_ROLL: return "roll";
    case VENUE_CMD_INVALID: break;
    }
    return "invalid";
}

static int invalid(venue_command *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int invalid(venue_command *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    out->action = VENUE_CMD_INVALID;
    return -1;
}

static venue_cmd_action action_from_word(const char *w, size_t n)
{
    static const struct {
        const char *word;
        venue_cmd_action action;
    } words[] = {
        {"overrule", VENUE_CMD_OVERRULE},
        {"accept", VENUE_CMD_OVERRULE}, /* watch's old name for it */
        {"confirm", VENUE_CMD_CONFIRM},
        {"undo", VENUE_CMD_UNDO},
        {"roll", VENUE_CMD_ROLL},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].word) == n && strncmp(words[i].word, w, n) == 0)
            return words[i].action;
    return VENUE_CMD_INVALID;
}

/* Printable text only: a reason ends up in logs, subtitles and on screens. */
static bool text_is_clean(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* A unit's id as a roll names it: printable, no spaces (it goes back into a command line). */
static bool unit_is_clean(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= 0x20 || *p == 0x7f)
            return false;
    return s[0] != 0;
}

static int finish(venue_command *out)
{
    if (out->action == VENUE_CMD_ROLL) { /* the roll is what it says: a reason is welcome, not required */
        if (!unit_is_clean(out->unit) || !base_text_valid(out->unit, strlen(out->unit)))
            return invalid(out, "roll: unit: expected a unit's id");
        if (!(out->roll_in >= 0 && out->roll_in <= 100))
            return invalid(out, "roll: roll_in: expected inches from 0 to 100");
        if (!text_is_clean(out->reason) || !base_text_valid(out->reason, strlen(out->reason)))
            return invalid(out, "reason: control characters or invalid UTF-8 are not allowed");
        snprintf(out->line, sizeof out->line, "roll %s %.2f%s%s", out->unit, out->roll_in, out->reason[0] ? " " : "",
                 out->reason);
        return 0;
    }
    if (!out->reason[0])
        return invalid(out, "%s: a reason is required", venue_cmd_word(out->action));
    if (!text_is_clean(out->reason))
        return invalid(out, "reason: control characters are not allowed");
    if (!base_text_valid(out->reason, strlen(out->reason)))
        return invalid(out, "reason: not valid UTF-8 text");
    if (out->action == VENUE_CMD_UNDO)
        out->move = 0;
    if (out->move > 0)
        snprintf(out->line, sizeof out->line, "%s %d %s", venue_cmd_word(out->action), out->move, out->reason);
    else
        snprintf(out->line, sizeof out->line, "%s %s", venue_cmd_word(out->action), out->reason);
    return 0;
}

static int copy_text(char *dst, size_t cap, const char *src, size_t n, const char *field, venue_command *out)
{
    if (n >= cap)
        return invalid(out, "%s: longer than %zu bytes", field, cap - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
    return 0;
}

static int parse_json(const char *text, venue_command *out)
{
    cJSON *root = cJSON_Parse(text);
    if (!root)
        return invalid(out, "not valid JSON");
    int rc = -1;
    if (!cJSON_IsObject(root)) {
        invalid(out, "expected a JSON object");
        goto done;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
    if (id && (!cJSON_IsString(id) || copy_text(out->id, sizeof out->id, id->valuestring,
                                                strlen(id->valuestring), "id", out) < 0)) {
        if (!out->error[0])
            invalid(out, "id: expected a string");
        goto done;
    }
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(root, "action");
    if (!cJSON_IsString(action)) {
        invalid(out, "action: expected \"overrule\", \"confirm\", \"undo\" or \"roll\"");
        goto done;
    }
    out->action = action_from_word(action->valuestring, strlen(action->valuestring));
    if (out->action == VENUE_CMD_INVALID) {
        invalid(out, "action: unknown \"%.40s\" (overrule, confirm, undo or roll)", action->valuestring);
        goto done;
    }
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(root, "move");
    if (move && !cJSON_IsNull(move)) {
        double m = cJSON_IsNumber(move) ? move->valuedouble : -1;
        if (!(m >= 0 && m <= 1e6 && m == (double)(int)m)) {
            invalid(out, "move: expected a whole number >= 0");
            goto done;
        }
        out->move = (int)m;
    }
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(root, "unit"), *roll = cJSON_GetObjectItemCaseSensitive(root, "roll_in");
    if (out->action == VENUE_CMD_ROLL) {
        if (!cJSON_IsString(unit) || copy_text(out->unit, sizeof out->unit, unit->valuestring,
                                               strlen(unit->valuestring), "unit", out) < 0 || !cJSON_IsNumber(roll)) {
            if (!out->error[0])
                invalid(out, "roll: expected \"unit\" (a string) and \"roll_in\" (inches)");
            goto done;
        }
        out->roll_in = roll->valuedouble;
    }
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(root, "reason");
    if (reason && !cJSON_IsString(reason)) {
        invalid(out, "reason: expected a string");
        goto done;
    }
    if (reason && copy_text(out->reason, sizeof out->reason, reason->valuestring, strlen(reason->valuestring),
                            "reason", out) < 0)
        goto done;
    rc = finish(out);
done:
    cJSON_Delete(root);
    return rc;
}

/* "ACTION [MOVE] REASON...": the same line `tableref watch-ctl` writes. */
static int parse_line(const char *text, venue_command *out)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    const char *w = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    out->action = action_from_word(w, (size_t)(p - w));
    if (out->action == VENUE_CMD_INVALID)
        return invalid(out, "unknown command \"%.*s\" (overrule, confirm, undo or roll)", (int)((p - w) > 40 ? 40 : p - w),
                       w);
    while (isspace((unsigned char)*p))
        p++;
    if (out->action == VENUE_CMD_ROLL) { /* "roll UNIT INCHES [reason]" */
        const char *u = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (copy_text(out->unit, sizeof out->unit, u, (size_t)(p - u), "unit", out) < 0)
            return -1;
        char *end;
        out->roll_in = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)))
            return invalid(out, "roll: expected roll UNIT INCHES");
        p = end;
        while (isspace((unsigned char)*p))
            p++;
    }
    if (out->action != VENUE_CMD_UNDO && out->action != VENUE_CMD_ROLL && isdigit((unsigned char)*p)) {
        char *end;
        long m = strtol(p, &end, 10);
        if ((*end && !isspace((unsigned char)*end)) || m > 1000000)
            return invalid(out, "move: expected a whole number");
        out->move = (int)m;
        p = end;
        while (isspace((unsigned char)*p))
            p++;
    }
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    if (copy_text(out->reason, sizeof out->reason, p, n, "reason", out) < 0)
        return -1;
    return finish(out);
}

int venue_command_parse(const char *payload, size_t len, const char *by, bool retained, venue_command *out)
{
    memset(out, 0, sizeof *out);
    base_text_copy(out->by, sizeof out->by, by && *by ? by : "unknown"); /* cut on a character boundary */
    if (len == 0)
        return invalid(out, "empty command");
    if (len > VENUE_COMMAND_MAX_PAYLOAD)
        return invalid(out, "command longer than %d bytes", VENUE_COMMAND_MAX_PAYLOAD);
    if (memchr(payload, 0, len))
        return invalid(out, "command holds a NUL byte");
    char *text = malloc(len + 1);
    if (!text)
        return invalid(out, "out of memory");
    memcpy(text, payload, len);
    text[len] = 0;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    int rc = *p == '{' || *p == '[' ? parse_json(p, out) : parse_line(p, out);
    if (retained) /* read first so that the log can show what it was */
        rc = invalid(out, "a retained command is refused (it would be applied again at every restart)");
    else if (!venue_command_judge_name_ok(by))
        rc = invalid(out, "not a judge's topic: only a judge commands, under their own name (command/NAME)");
    if (rc < 0) {
        /* What was received, printable, so that the log can show it. */
        snprintf(out->line, sizeof out->line, "%s", p);
        for (char *c = out->line; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = ' ';
    }
    free(text);
    return rc;
}
