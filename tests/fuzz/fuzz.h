/*
 * The fuzz targets (issue 10): one per reader of outside input. Each file
 * defines LLVMFuzzerTestOneInput; it is linked either with libFuzzer
 * (tests/fuzz/run.sh, clang, -Dfuzz=true) or with fuzz_main.c, which replays
 * a corpus folder as a plain regression test in every build.
 *
 * A target must never crash, hang, leak or trip a sanitizer on any input;
 * where it can, it also checks a property (what the writer writes, the
 * reader reads back) and aborts when it does not hold.
 */
#ifndef TABLEREF_FUZZ_H
#define TABLEREF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (JSON readers); free() it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (t) {
        memcpy(t, data, size);
        t[size] = '\0';
    }
    return t;
}

#endif
