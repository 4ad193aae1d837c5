/*
 * Replays fuzz inputs without libFuzzer: every file named, and every file in
 * every folder named, through LLVMFuzzerTestOneInput once. A crash or a
 * sanitizer report fails the test; the corpus in tests/fuzz/corpus/ is the
 * regression set of every build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    long files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            fprintf(stderr, "fuzz replay: no %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) < 0)
                return 1;
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            if (run_file(p) < 0)
                return 1;
            files++;
        }
        if (d)
            closedir(d);
    }
    printf("fuzz replay: %ld inputs, no crash\n", files);
    return files > 0 ? 0 : 1;
}
