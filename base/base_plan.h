/*
 * base_plan: the files one command reads and writes, known before it works.
 *
 * A command plans every file it will read (its options and arguments, the
 * files a table file names, a source's frames) and every file it will write
 * (its options, the files it puts into an output folder, the files named
 * after another output), then asks base_plan_check before it writes anything
 * or starts its work. The check refuses, naming both places:
 *   - an output that is an input: the same path, or the same device and inode
 *     (a hard link, a symbolic link to it, a file a table file names);
 *   - two outputs that are one file;
 *   - an output that is a symbolic link (its target would be replaced), a
 *     folder, a FIFO, a socket or a block device (a character device such as
 *     /dev/null is written in place and takes no part in the comparisons);
 *   - an output in a place that cannot be written (a folder without write
 *     permission, a read-only file system, a file in the way of a folder), an
 *     appended output that cannot be written, a name over the system's limits.
 * Every file base_file reads is noted here too, as an input without a name
 * (base_plan_note_read); base_file refuses to write onto one of them.
 * Everything is kept by path and, once a file exists, by device and inode.
 *
 * How to use (cli/cli_args.c does it for every command from its option table):
 *   base_plan_reset();
 *   base_plan_add(BASE_PLAN_READ, "c.json", "--calib", NULL);
 *   base_plan_add(BASE_PLAN_WRITE, "o/report.json", "--out", "o");     // a file inside --out o
 *   base_plan_add(BASE_PLAN_APPEND, "game.jsonl", "--log", NULL);
 *   base_plan_allow("--out", "--calib");      // calibrate board updates --calib in place, by design
 *   if (base_plan_check(&err) < 0) ... exit 2 with err.msg:
 *       "--out o (o/report.json) is also --calib o/report.json: an output may not be an input ..."
 *   ... later, once more files are known (a table file's references read, a source opened):
 *   base_plan_add(BASE_PLAN_WRITE, "game.vtt", "--record", "game.mp4");
 *   if (base_plan_check(&err) < 0) ...
 *
 * The registry is process-wide and locked (the watch reads from threads); the names and paths
 * given are copied.
 */
#ifndef BASE_PLAN_H
#define BASE_PLAN_H

#include <stdbool.h>
#include <sys/types.h>

#include "base_error.h"

typedef enum base_plan_role {
    BASE_PLAN_READ,   /* a file (or folder) the command reads */
    BASE_PLAN_WRITE,  /* a file written whole: replaced through a temporary file beside it */
    BASE_PLAN_APPEND, /* a file written in place, appended to or streamed (the event log, a recording) */
} base_plan_role;

/* Forgets what the command planned (its reads noted by base_file stay). */
void base_plan_reset(void);

/*
 * Plans a file. `who` names where it came from in messages: an option ("--calib") or an argument
 * ("BEFORE"); NULL for "a file this command reads". `given` is what the user wrote when the path is
 * made from it (the folder of --out, the recording a subtitle file is named after), else NULL.
 * "-" (stdout) is not a file and is ignored. 0, or -1 when out of memory.
 */
int base_plan_add(base_plan_role role, const char *path, const char *who, const char *given);

/* Forgets what was planned under `who`: the command names its files itself now (roster import --all: --out is a
 * folder of rosters named after the players). */
void base_plan_drop(const char *who);

/* An output named `output_who` may be the input named `input_who` (a file updated in place by design). */
void base_plan_allow(const char *output_who, const char *input_who);

/* The checks above over everything planned and read so far: 0, or -1 with err naming both places. */
int base_plan_check(base_error *err);

/* The reads base_file notes (any file it opened for reading). */
void base_plan_note_read(const char *path, dev_t dev, ino_t ino);
void base_plan_forget_read(dev_t dev, ino_t ino);
bool base_plan_is_read(dev_t dev, ino_t ino);
void base_plan_forget_reads(void);

#endif
