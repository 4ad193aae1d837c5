#include "cli_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int cli_run(const char *args, cli_result *r)
{
    memset(r, 0, sizeof *r);
    const char *bin = getenv("TABLEREF_BIN"), *root = getenv("TABLEREF_SOURCE_ROOT");
    if (!bin || !root)
        return -1;
    char errfile[] = "/tmp/tableref-test-XXXXXX";
    int fd = mkstemp(errfile);
    if (fd < 0)
        return -1;
    close(fd);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>'%s'", root, bin, args, errfile);
    FILE *p = popen(cmd, "r");
    if (!p) {
        unlink(errfile);
        return -1;
    }
    size_t n = fread(r->out, 1, sizeof r->out - 1, p);
    r->out[n] = '\0';
    /* drain the rest so the child never blocks on a full pipe */
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {
    }
    int st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *e = fopen(errfile, "r");
    if (e) {
        n = fread(r->err, 1, sizeof r->err - 1, e);
        r->err[n] = '\0';
        fclose(e);
    }
    unlink(errfile);
    return 0;
}
