#include "venue_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A pipe whose ends are not inherited by the exec'ed child (except as dup2'ed). */
static int pipe_cloexec(int fd[2])
{
    if (pipe(fd) < 0)
        return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int venue_proc_spawn(venue_proc *p, char *const argv[], const char *ready, int timeout_ms)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    int to_child[2], from_child[2];
    if (pipe_cloexec(to_child) < 0)
        return -1;
    if (pipe_cloexec(from_child) < 0) {
        close(to_child[0]);
        close(to_child[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    p->pid = pid;
    p->in = to_child[1];
    p->out = from_child[0];
    if (pid < 0)
        return -1;
    signal(SIGPIPE, SIG_IGN); /* a dead child must fail a test, not kill it */
    if (!ready)
        return 0;
    char line[1024];
    if (venue_proc_read_line(p, line, sizeof line, timeout_ms) < 0 || strcmp(line, ready) != 0) {
        venue_proc_kill(p, SIGKILL);
        return -1;
    }
    return 0;
}

const char *venue_proc_node(void)
{
    const char *node = getenv("TABLEREF_NODE");
    return node && *node ? node : "node";
}

int venue_proc_start(venue_proc *p, int port, const char *event, int table, bool apply)
{
    return venue_proc_start_as(p, port, event, table, apply, NULL, NULL);
}

int venue_proc_start_as(venue_proc *p, int port, const char *event, int table, bool apply, const char *user,
                        const char *password)
{
    const char *prog = getenv("TABLEREF_VENUE_DRIVER");
    if (!prog) {
        memset(p, 0, sizeof *p);
        p->pid = -1;
        return -1;
    }
    char port_s[16], table_s[16];
    snprintf(port_s, sizeof port_s, "%d", port);
    snprintf(table_s, sizeof table_s, "%d", table);
    char *argv[16] = {(char *)prog, "--port", port_s, "--event", (char *)event, "--table", table_s};
    int n = 7;
    if (user) {
        argv[n++] = "--user";
        argv[n++] = (char *)user;
        argv[n++] = "--password";
        argv[n++] = (char *)(password ? password : "");
    }
    if (apply)
        argv[n++] = "--apply";
    argv[n] = NULL;
    return venue_proc_spawn(p, argv, "ready", 5000);
}

int venue_proc_say(venue_proc *p, const char *text)
{
    size_t n = strlen(text);
    return write(p->in, text, n) == (ssize_t)n ? 0 : -1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

int venue_proc_read_line(venue_proc *p, char *line, size_t cap, int timeout_ms)
{
    double until = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->have);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            snprintf(line, cap, "%.*s", (int)n, p->buf);
            memmove(p->buf, nl + 1, p->have - n - 1);
            p->have -= n + 1;
            return 0;
        }
        int left = (int)(until - now_ms());
        if (left <= 0 || p->have == sizeof p->buf)
            return -1;
        struct pollfd pf = {p->out, POLLIN, 0};
        if (poll(&pf, 1, left) <= 0)
            return -1;
        ssize_t got = read(p->out, p->buf + p->have, sizeof p->buf - p->have);
        if (got <= 0)
            return -1;
        p->have += (size_t)got;
    }
}

static void close_pipes(venue_proc *p)
{
    if (p->in > 0)
        close(p->in);
    if (p->out > 0)
        close(p->out);
    p->in = p->out = -1;
}

int venue_proc_kill(venue_proc *p, int sig)
{
    int st = -1;
    if (p->pid > 0) {
        kill(p->pid, sig);
        waitpid(p->pid, &st, 0);
        p->pid = -1;
    }
    close_pipes(p);
    return st;
}

int venue_proc_finish(venue_proc *p)
{
    if (p->pid <= 0)
        return -1;
    close(p->in);
    p->in = -1;
    int st;
    for (int waited = 0; waited < 10000; waited += 10) {
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->pid = -1;
            close_pipes(p);
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    venue_proc_kill(p, SIGKILL);
    return -1;
}
