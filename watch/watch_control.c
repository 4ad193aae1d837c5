#include "watch_control.h"

#include "rules_snapshot.h"

/* The reach shown when the command names no move: a March's. */
#define WATCH_REACH_DEFAULT RULES_MOVE_MARCH

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define QUEUE_MAX WATCH_CONTROL_QUEUE_MAX
#define MAX_FDS 4
#define LINE_MAX_BYTES 512

/* A descriptor read in whole lines. */
typedef struct line_source {
    int fd;
    char name[32];
    char buf[LINE_MAX_BYTES];
    size_t n;
} line_source;

struct watch_control {
    pthread_mutex_t lock;
    watch_command queue[QUEUE_MAX];
    size_t head, count;
    long overflow;                 /* commands refused since the queue was last full */
    watch_command overflow_first;  /* the first of them */
    line_source src[MAX_FDS];
    size_t n_src;
};

const char *watch_cmd_word(watch_cmd_action a)
{
    switch (a) {
    case WATCH_CMD_OVERRULE: return "overrule";
    case WATCH_CMD_CONFIRM: return "confirm";
    case WATCH_CMD_UNDO: return "undo";
    case WATCH_CMD_STOP: return "stop";
    case WATCH_CMD_STATUS: return "status";
    case WATCH_CMD_REACH: return "reach";
    case WATCH_CMD_ROLL: return "roll";
    case WATCH_CMD_INVALID: break;
    }
    return "invalid";
}

static void trim_copy(char *dst, size_t cap, const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* The next blank-separated word of *p into buf (truncated); *p moves past it. 0 when there is none. */
static size_t next_word(const char **p, char *buf, size_t cap)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    size_t n = 0;
    while ((*p)[n] && !isspace((unsigned char)(*p)[n]))
        n++;
    snprintf(buf, cap, "%.*s", (int)n, *p);
    *p += n;
    return n;
}

/* "status UNIT WORDS [reason]" after the word "status". */
static int parse_status(const char *p, watch_command *out)
{
    char words[128];
    out->action = WATCH_CMD_STATUS;
    if (!next_word(&p, out->unit, sizeof out->unit) || !next_word(&p, words, sizeof words)) {
        out->action = WATCH_CMD_INVALID;
        snprintf(out->error, sizeof out->error, "status needs a unit and a status (engaged, fleeing, shaken, "
                                                "charging, or clear)");
        return -1;
    }
    out->status = 0;
    if (strcmp(words, "clear") != 0)
        for (char *save = NULL, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            unsigned bit = rules_status_from_word(w);
            if (!bit) {
                out->action = WATCH_CMD_INVALID;
                snprintf(out->error, sizeof out->error, "unknown status '%.40s' (engaged, fleeing, shaken, charging, "
                                                        "or clear)", w);
                return -1;
            }
            out->status |= bit;
        }
    trim_copy(out->reason, sizeof out->reason, p);
    return 0;
}

/* The moves a reach is shown for, as typed: the default (a March's) first, then the other rows with a reach
 * (rules_moves.def), joined by `sep` and the last two by `last`: "march|advance", "march or advance". */
static void reach_moves(const char *sep, const char *last, char *buf, size_t cap)
{
    char others[128];
    size_t n = 0, k = 0;
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        n += t != WATCH_REACH_DEFAULT && rules_move_has((rules_move_type)t, RULES_MOVE_REACH);
    others[0] = 0;
    for (int t = 0, off = 0; t < RULES_MOVE_COUNT; t++)
        if (t != WATCH_REACH_DEFAULT && rules_move_has((rules_move_type)t, RULES_MOVE_REACH) &&
            off < (int)sizeof others) {
            k++;
            off += snprintf(others + off, sizeof others - (size_t)off, "%s%s", k == n ? last : sep,
                            rules_move_token((rules_move_type)t));
        }
    snprintf(buf, cap, "%s%s", rules_move_token(WATCH_REACH_DEFAULT), others);
}

/* "reach UNIT [MOVE]" (MOVE: a row with a reach, default march) or "reach clear" after the word "reach". */
static int parse_reach(const char *p, watch_command *out)
{
    char move[32] = "", moves[64];
    out->action = WATCH_CMD_REACH;
    out->reach_move = WATCH_REACH_DEFAULT;
    if (!next_word(&p, out->unit, sizeof out->unit)) {
        out->action = WATCH_CMD_INVALID;
        reach_moves("|", "|", moves, sizeof moves);
        snprintf(out->error, sizeof out->error, "reach needs a unit (reach UNIT [%.60s]) or clear", moves);
        return -1;
    }
    if (strcmp(out->unit, "clear") == 0) {
        out->unit[0] = 0;
        return 0;
    }
    next_word(&p, move, sizeof move);
    if (move[0] && (rules_move_from_token(move, &out->reach_move) < 0 ||
                    !rules_move_has(out->reach_move, RULES_MOVE_REACH))) {
        out->action = WATCH_CMD_INVALID;
        out->reach_move = WATCH_REACH_DEFAULT;
        reach_moves(", ", " or ", moves, sizeof moves);
        snprintf(out->error, sizeof out->error, "reach: '%.40s' is not %.60s", move, moves);
        return -1;
    }
    out->advance = out->reach_move == RULES_MOVE_ADVANCE;
    return 0;
}

/* "roll UNIT INCHES [reason]" after the word "roll": the roll a player declares for random movement. */
static int parse_roll(const char *p, watch_command *out)
{
    char inches[32];
    out->action = WATCH_CMD_ROLL;
    char *end = NULL;
    double v = next_word(&p, out->unit, sizeof out->unit) && next_word(&p, inches, sizeof inches)
                   ? strtod(inches, &end)
                   : -1;
    if (end && *end == '"')
        end++;
    if (!end || *end || !(v >= 0 && v <= 100)) {
        out->action = WATCH_CMD_INVALID;
        snprintf(out->error, sizeof out->error, "roll needs a unit and the roll in inches (roll UNIT INCHES, 0 to 100)");
        return -1;
    }
    out->roll_in = v;
    trim_copy(out->reason, sizeof out->reason, p);
    return 0;
}

int watch_command_parse(const char *line, const char *by, watch_command *out)
{
    memset(out, 0, sizeof *out);
    trim_copy(out->line, sizeof out->line, line ? line : "");
    snprintf(out->by, sizeof out->by, "%s", by ? by : "");
    const char *p = out->line;
    char word[16];
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]))
        n++;
    if (n == 0 || n >= sizeof word) {
        snprintf(out->error, sizeof out->error, "expected overrule, confirm, undo or stop");
        return -1;
    }
    memcpy(word, p, n);
    word[n] = 0;
    p += n;
    if (strcmp(word, "overrule") == 0 || strcmp(word, "accept") == 0)
        out->action = WATCH_CMD_OVERRULE;
    else if (strcmp(word, "confirm") == 0)
        out->action = WATCH_CMD_CONFIRM;
    else if (strcmp(word, "undo") == 0)
        out->action = WATCH_CMD_UNDO;
    else if (strcmp(word, "stop") == 0 || strcmp(word, "quit") == 0)
        out->action = WATCH_CMD_STOP;
    else if (strcmp(word, "status") == 0)
        return parse_status(p, out);
    else if (strcmp(word, "reach") == 0)
        return parse_reach(p, out);
    else if (strcmp(word, "roll") == 0)
        return parse_roll(p, out);
    else {
        snprintf(out->error, sizeof out->error,
                 "unknown command '%s' (overrule, confirm, undo, status, reach, roll, stop)", word);
        return -1;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    /* An optional move number: overrule and confirm only (undo always takes the latest). */
    if (isdigit((unsigned char)*p) && (out->action == WATCH_CMD_OVERRULE || out->action == WATCH_CMD_CONFIRM)) {
        char *end;
        long m = strtol(p, &end, 10);
        if (*end == 0 || isspace((unsigned char)*end)) {
            if (m < 1 || m > 1000000) {
                out->action = WATCH_CMD_INVALID;
                snprintf(out->error, sizeof out->error, "move number %ld out of range", m);
                return -1;
            }
            out->move = (int)m;
            p = end;
        }
    }
    trim_copy(out->reason, sizeof out->reason, p);
    return 0;
}

watch_control *watch_control_new(base_error *err)
{
    watch_control *c = calloc(1, sizeof *c);
    if (!c || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        base_error_set(err, "out of memory");
        return NULL;
    }
    return c;
}

void watch_control_free(watch_control *ctl)
{
    if (!ctl)
        return;
    pthread_mutex_destroy(&ctl->lock);
    free(ctl);
}

int watch_control_add_fd(watch_control *ctl, int fd, const char *name, base_error *err)
{
    if (ctl->n_src == MAX_FDS)
        return base_error_set(err, "too many command sources");
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return base_error_set(err, "%s: cannot read commands: %s", name, strerror(errno));
    line_source *s = &ctl->src[ctl->n_src++];
    memset(s, 0, sizeof *s);
    s->fd = fd;
    snprintf(s->name, sizeof s->name, "%s", name);
    return 0;
}

static int enqueue(watch_control *ctl, const watch_command *c)
{
    pthread_mutex_lock(&ctl->lock);
    int rc = -1;
    if (ctl->count < QUEUE_MAX && ctl->overflow == 0) {
        ctl->queue[(ctl->head + ctl->count) % QUEUE_MAX] = *c;
        ctl->count++;
        rc = 0;
    } else if (ctl->overflow++ == 0) {
        ctl->overflow_first = *c;
    }
    pthread_mutex_unlock(&ctl->lock);
    return rc;
}

int watch_control_push(watch_control *ctl, const watch_command *c)
{
    return enqueue(ctl, c);
}

int watch_control_push_line(watch_control *ctl, const char *line, const char *by)
{
    watch_command c;
    watch_command_parse(line, by, &c);
    return enqueue(ctl, &c);
}

/* Queues every complete non-empty line waiting on the descriptor. */
static void read_lines(watch_control *ctl, line_source *s)
{
    while (s->fd >= 0) {
        struct pollfd p = {s->fd, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP)))
            return;
        ssize_t k = read(s->fd, s->buf + s->n, sizeof s->buf - 1 - s->n);
        if (k <= 0) {
            /* End of stdin: stop reading it (a FIFO opened read-write never ends). */
            if (k == 0)
                s->fd = -1;
            return;
        }
        s->n += (size_t)k;
        s->buf[s->n] = 0;
        char *nl;
        while ((nl = strchr(s->buf, '\n'))) {
            *nl = 0;
            char trimmed[LINE_MAX_BYTES];
            trim_copy(trimmed, sizeof trimmed, s->buf);
            if (trimmed[0])
                watch_control_push_line(ctl, trimmed, s->name);
            size_t used = (size_t)(nl + 1 - s->buf);
            memmove(s->buf, nl + 1, s->n - used + 1);
            s->n -= used;
        }
        if (s->n == sizeof s->buf - 1) {
            /* A line this long is no command: say so rather than drop it. */
            watch_control_push_line(ctl, "(a line too long to be a command)", s->name);
            s->n = 0;
        }
    }
}

int watch_control_poll(watch_control *ctl, watch_command *out)
{
    for (size_t i = 0; i < ctl->n_src; i++)
        read_lines(ctl, &ctl->src[i]);
    pthread_mutex_lock(&ctl->lock);
    int got = 0;
    if (ctl->count) {
        *out = ctl->queue[ctl->head];
        ctl->head = (ctl->head + 1) % QUEUE_MAX;
        ctl->count--;
        got = 1;
    } else if (ctl->overflow) {
        /* The refused ones, after those queued before them: one record that counts them. */
        const watch_command *first = &ctl->overflow_first;
        memset(out, 0, sizeof *out);
        out->action = WATCH_CMD_INVALID;
        out->refused_count = ctl->overflow;
        snprintf(out->by, sizeof out->by, "%s", first->by);
        snprintf(out->id, sizeof out->id, "%s", first->id);
        snprintf(out->line, sizeof out->line, "%s", first->line);
        snprintf(out->error, sizeof out->error, "%ld command%s refused: the command queue (%d) was full",
                 ctl->overflow, ctl->overflow == 1 ? "" : "s", QUEUE_MAX);
        ctl->overflow = 0;
        got = 1;
    }
    pthread_mutex_unlock(&ctl->lock);
    return got;
}

int watch_control_open_fifo(const char *path, base_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        if (mkfifo(path, 0600) < 0)
            return base_error_set(err, "%s: cannot create the control pipe: %s", path, strerror(errno));
    } else if (!S_ISFIFO(st.st_mode)) {
        return base_error_set(err, "%s: exists and is not a named pipe", path);
    }
    /* O_RDWR keeps a writer open ourselves, so the pipe never reports EOF between watch-ctl calls. */
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0)
        return base_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    return fd;
}
