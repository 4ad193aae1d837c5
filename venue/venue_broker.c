#include "venue_broker.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

void venue_broker_options_default(venue_broker_options *o)
{
    memset(o, 0, sizeof *o);
}

static void sleep_ms(int ms)
{
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

int venue_broker_free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return 0;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t n = sizeof a;
    int port = 0;
    if (bind(s, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(s, (struct sockaddr *)&a, &n) == 0)
        port = ntohs(a.sin_port);
    close(s);
    return port;
}

static bool port_accepts(int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return false;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(s, (struct sockaddr *)&a, sizeof a) == 0;
    close(s);
    return ok;
}

static const char *program(void)
{
    const char *env = getenv("TABLEREF_MOSQUITTO");
    if (env && *env)
        return env;
    static const char *places[] = {"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto", "/usr/bin/mosquitto"};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
        if (access(places[i], X_OK) == 0)
            return places[i];
    return "mosquitto"; /* from PATH */
}

static int write_conf(const venue_broker *b, base_error *err)
{
    FILE *f = fopen(b->conf_path, "w");
    if (!f)
        return base_error_set(err, "%s: cannot create: %s", b->conf_path, strerror(errno));
    const venue_broker_options *o = &b->opt;
    fprintf(f, "# written by tableref (venue_broker_start); see docs/venue.md\n");
    if (geteuid() == 0)
        fprintf(f, "user root\n"); /* as root, mosquitto would switch to a user who cannot read this directory */
    fprintf(f, "per_listener_settings false\n");
    fprintf(f, "allow_anonymous %s\n", o->deny_anonymous ? "false" : "true");
    if (o->password_file)
        fprintf(f, "password_file %s\n", o->password_file);
    if (o->acl_file)
        fprintf(f, "acl_file %s\n", o->acl_file);
    fprintf(f, "set_tcp_nodelay true\nmax_queued_messages 10000\n");
    fprintf(f, "persistence %s\n", o->persistence ? "true" : "false");
    if (o->persistence)
        fprintf(f, "persistence_location %s/\nautosave_interval 5\n", b->dir);
    fprintf(f, "log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\n");
    fprintf(f, "listener %d 127.0.0.1\n", b->port);
    if (o->websockets) {
        fprintf(f, "listener %d 127.0.0.1\nprotocol websockets\n", b->ws_port);
        if (o->http_dir)
            fprintf(f, "http_dir %s\n", o->http_dir);
    }
    if (fclose(f) != 0)
        return base_error_set(err, "%s: cannot write: %s", b->conf_path, strerror(errno));
    return 0;
}

static int spawn(venue_broker *b, base_error *err)
{
    int log = open(b->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log < 0)
        return base_error_set(err, "%s: cannot create: %s", b->log_path, strerror(errno));
    const char *prog = program();
    pid_t pid = fork();
    if (pid < 0) {
        close(log);
        return base_error_set(err, "cannot start %s: %s", prog, strerror(errno));
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* no broker outlives a crashed test */
#endif
        dup2(log, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        execlp(prog, prog, "-c", b->conf_path, (char *)NULL);
        _exit(127);
    }
    close(log);
    b->pid = pid;
    for (int waited = 0; waited < 5000; waited += 20) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            b->pid = 0;
            char tail[300];
            venue_broker_log_tail(b, tail, sizeof tail);
            return base_error_set(err, "%s exited at start (status %d): %s", prog,
                                   WIFEXITED(st) ? WEXITSTATUS(st) : -1, tail);
        }
        if (port_accepts(b->port) && (!b->opt.websockets || port_accepts(b->ws_port)))
            return 0;
        sleep_ms(20);
    }
    venue_broker_stop(b);
    return base_error_set(err, "%s did not accept connections on 127.0.0.1:%d within 5 s", prog, b->port);
}

int venue_broker_start(const venue_broker_options *o, venue_broker *b, base_error *err)
{
    memset(b, 0, sizeof *b);
    b->opt = *o;
    if (o->dir) {
        snprintf(b->dir, sizeof b->dir, "%s", o->dir);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(b->dir, sizeof b->dir, "%s/tableref-broker-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(b->dir))
            return base_error_set(err, "%s: cannot create a directory: %s", b->dir, strerror(errno));
        b->own_dir = true;
    }
    snprintf(b->conf_path, sizeof b->conf_path, "%s/mosquitto.conf", b->dir);
    snprintf(b->log_path, sizeof b->log_path, "%s/mosquitto.log", b->dir);
    /* A port picked free may be taken before the broker binds it: try a few times. */
    for (int attempt = 0; attempt < 5; attempt++) {
        b->port = o->port ? o->port : venue_broker_free_port();
        b->ws_port = o->websockets ? (o->ws_port ? o->ws_port : venue_broker_free_port()) : 0;
        if (!b->port || (o->websockets && (!b->ws_port || b->ws_port == b->port)))
            continue;
        if (write_conf(b, err) < 0)
            break;
        if (spawn(b, err) == 0)
            return 0;
        if (o->port)
            break;
    }
    if (b->own_dir)
        venue_broker_stop(b);
    return -1;
}

int venue_broker_start_conf(const char *conf_path, const char *dir, int port, int ws_port, venue_broker *b,
                            base_error *err)
{
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    snprintf(b->conf_path, sizeof b->conf_path, "%s", conf_path);
    snprintf(b->log_path, sizeof b->log_path, "%s/mosquitto.log", dir);
    b->port = port;
    b->ws_port = ws_port;
    b->opt.websockets = ws_port != 0;
    return spawn(b, err);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[1100];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static int stop_process(venue_broker *b)
{
    if (b->pid <= 0)
        return 0;
    int st, rc = -1;
    kill(b->pid, SIGCONT); /* a test may have paused it */
    kill(b->pid, SIGTERM);
    for (int waited = 0; waited < 3000; waited += 10) {
        if (waitpid(b->pid, &st, WNOHANG) == b->pid) {
            rc = 0;
            break;
        }
        sleep_ms(10);
    }
    if (rc < 0) {
        kill(b->pid, SIGKILL);
        waitpid(b->pid, &st, 0);
    }
    b->pid = 0;
    return rc;
}

int venue_broker_stop(venue_broker *b)
{
    int rc = stop_process(b);
    if (b->own_dir && b->dir[0])
        remove_dir(b->dir);
    b->dir[0] = 0;
    return rc;
}

int venue_broker_restart(venue_broker *b, base_error *err)
{
    stop_process(b);
    for (int waited = 0; waited < 3000 && port_accepts(b->port); waited += 20)
        sleep_ms(20);
    return spawn(b, err);
}

void venue_broker_log_tail(const venue_broker *b, char *buf, size_t cap)
{
    buf[0] = 0;
    FILE *f = fopen(b->log_path, "r");
    if (!f || cap < 2) {
        if (f)
            fclose(f);
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)cap - 1 ? size - (long)cap + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}
