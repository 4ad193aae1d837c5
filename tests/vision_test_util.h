/* Helpers shared by the vision test suites: paths from the test environment. */
#ifndef VISION_TEST_UTIL_H
#define VISION_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static inline const char *vt_env(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}
/* The tableref binary under test (meson sets TABLEREF_BIN). */
static inline const char *vt_tableref_bin(void) { return vt_env("TABLEREF_BIN", "tableref"); }
static inline const char *vt_source_root(void) { return vt_env("TABLEREF_SOURCE_ROOT", "."); }
/* Exit status of system()'s result; -1 when the child did not exit normally. */
static inline int vt_exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
/* A file's first n-1 bytes into head (NUL-terminated) and its size in bytes; -1 when it cannot be opened. */
static inline long vt_file_head(const char *path, char *head, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    memset(head, 0, n);
    size_t got = fread(head, 1, n - 1, f);
    (void)got;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return size;
}

#endif
