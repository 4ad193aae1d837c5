#include "venue_site.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs `tableref venue setup ...` with its output in LOG; its exit status, or -1 when it could not run. */
static int run_setup(const venue_site *s, const char *out, const char *event, int tables, const char *judges,
                     const char *streamers, const char *http_dir)
{
    const char *bin = getenv("TABLEREF_BIN");
    if (!bin || !*bin)
        return -1;
    char tables_s[16], port_s[16], ws_s[16], log[700];
    snprintf(tables_s, sizeof tables_s, "%d", tables);
    snprintf(port_s, sizeof port_s, "%d", s->broker.port);
    snprintf(ws_s, sizeof ws_s, "%d", s->broker.ws_port);
    snprintf(log, sizeof log, "%s/setup.log", s->dir);
    char *argv[24] = {(char *)bin, "venue", "setup", "--out", (char *)out, "--event", (char *)event, "--tables",
                      tables_s, "--judges", (char *)judges, "--mqtt-port", port_s, "--ws-port", ws_s, "--bind",
                      "127.0.0.1"};
    int n = 17;
    if (streamers && *streamers)
        argv[n++] = "--streamers", argv[n++] = (char *)streamers;
    if (http_dir)
        argv[n++] = "--http-dir", argv[n++] = (char *)http_dir;
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO), dup2(fd, STDERR_FILENO);
        execv(bin, argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Every DIR/passwords/USER's first line. */
static int read_passwords(venue_site *s, const char *setup)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s/passwords", setup);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    s->n_accounts = 0;
    while ((e = readdir(d)) && s->n_accounts < VENUE_SITE_MAX_ACCOUNTS) {
        if (e->d_name[0] == '.')
            continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        char *pw = s->passwords[s->n_accounts];
        if (fgets(pw, (int)sizeof s->passwords[0], f)) {
            pw[strcspn(pw, "\n")] = 0;
            snprintf(s->users[s->n_accounts++], sizeof s->users[0], "%.39s", e->d_name);
        }
        fclose(f);
    }
    closedir(d);
    return 0;
}

static void remove_tree(const char *dir)
{
    if (!dir[0])
        return;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", dir, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
}

/* One attempt on two ports picked free now (another process may take one before the broker binds it). */
static int attempt(venue_site *s, const char *event, int tables, const char *judges, const char *streamers,
                   const char *http_dir, char *err, size_t cap)
{
    char setup[600], conf[700];
    snprintf(setup, sizeof setup, "%s/venue", s->dir);
    remove_tree(setup);
    s->broker.port = venue_broker_free_port();
    s->broker.ws_port = venue_broker_free_port();
    if (!s->broker.port || !s->broker.ws_port || s->broker.port == s->broker.ws_port)
        return snprintf(err, cap, "no free loopback ports"), -1;
    int rc = run_setup(s, setup, event, tables, judges, streamers, http_dir);
    if (rc != 0)
        return snprintf(err, cap, "tableref venue setup exited %d (see %s/setup.log)", rc, s->dir), -2;
    if (read_passwords(s, setup) < 0)
        return snprintf(err, cap, "%s/passwords: %s", setup, strerror(errno)), -2;
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", setup);
    int port = s->broker.port, ws = s->broker.ws_port;
    base_error e;
    if (venue_broker_start_conf(conf, setup, port, ws, &s->broker, &e) < 0)
        return snprintf(err, cap, "mosquitto -c %s: %s", conf, e.msg), -1;
    return 0;
}

int venue_site_start(venue_site *s, const char *event, int tables, const char *judges, const char *streamers,
                     const char *http_dir, char *err, size_t cap)
{
    memset(s, 0, sizeof *s);
    const char *tmp = getenv("TMPDIR");
    snprintf(s->dir, sizeof s->dir, "%s/tableref-site-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->dir)) {
        snprintf(err, cap, "%s: %s", s->dir, strerror(errno));
        s->dir[0] = 0;
        return -1;
    }
    /* Run as root, the set-up's broker runs as the unprivileged mosquitto account, which must enter this folder
     * (venue setup checks and says so). */
    chmod(s->dir, 0711);
    int rc = -1;
    for (int i = 0; i < 3 && rc == -1; i++)
        rc = attempt(s, event, tables, judges, streamers, http_dir, err, cap);
    return rc == 0 ? 0 : -1;
}

const char *venue_site_password(const venue_site *s, const char *user)
{
    for (int i = 0; i < s->n_accounts; i++)
        if (strcmp(s->users[i], user) == 0)
            return s->passwords[i];
    return "";
}

const char *venue_site_password_file(venue_site *s, const char *user)
{
    snprintf(s->path, sizeof s->path, "%s/venue/passwords/%s", s->dir, user);
    return s->path;
}

void venue_site_stop(venue_site *s)
{
    venue_broker_stop(&s->broker);
    remove_tree(s->dir);
    s->dir[0] = 0;
}
