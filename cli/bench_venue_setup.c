#define _XOPEN_SOURCE 700 /* nftw */
#include "bench_venue_setup.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_file.h"
#include "venue_setup.h"

int bench_setup_start(int tables, int judges, venue_broker *b, char *dir, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/tableref-bench-setup-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench venue: cannot make %s\n", dir);
        return -1;
    }
    chmod(dir, 0711); /* as root the broker runs as an unprivileged account, which must enter it */
    venue_setup_options o;
    venue_setup_options_default(&o);
    static char names[VENUE_SETUP_MAX_NAMES][16];
    o.dir = dir, o.event = "bench", o.tables = tables, o.bind = "127.0.0.1";
    for (int k = 0; k < judges && k < VENUE_SETUP_MAX_NAMES; k++) {
        snprintf(names[k], sizeof names[k], "judge-%d", k + 1);
        o.judges[o.n_judges++] = names[k];
    }
    o.mqtt_port = venue_broker_free_port(), o.ws_port = venue_broker_free_port();
    base_error err;
    if (!o.mqtt_port || !o.ws_port || venue_setup_write(&o, &err) < 0) {
        fprintf(stderr, "bench venue: venue setup: %s\n", o.mqtt_port && o.ws_port ? err.msg : "no free port");
        return -1;
    }
    char conf[600];
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", dir);
    if (venue_broker_start_conf(conf, dir, o.mqtt_port, o.ws_port, b, &err) < 0) {
        fprintf(stderr, "bench venue: %s\n", err.msg);
        return -1;
    }
    return 0;
}

int bench_setup_password(const char *dir, const char *user, char *out, size_t cap)
{
    char path[700];
    snprintf(path, sizeof path, "%s/passwords/%s", dir, user);
    char *text = NULL;
    size_t len = 0;
    base_error err;
    if (base_file_read_all(path, 4096, "a password file", &text, &len, &err) < 0) {
        fprintf(stderr, "bench venue: %s\n", err.msg);
        return -1;
    }
    snprintf(out, cap, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void bench_setup_remove(const char *dir)
{
    if (dir && dir[0] && nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "bench venue: could not remove %s\n", dir);
}
