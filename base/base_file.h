/*
 * base_file: the one way tableref reads and writes files.
 *
 * Reading refuses what is not a regular file where one is expected (a FIFO
 * would wait for ever, a device never ends) with BASE_E_NOT_REGULAR, and what
 * is over a size cap with BASE_E_TOO_LARGE. Every file read is noted as an
 * input of the command (its device and inode).
 *
 * Writing goes to a new temporary file beside the target (O_EXCL|O_NOFOLLOW;
 * a short name of its own, ".tableref-PID-N.tmp", so a target named as long as
 * the system allows still has one), is flushed to disk and renamed over the
 * target, so a reader never sees half a file and a failed write leaves the old
 * file as it was. While a hold is on (base_file_hold), a committed file waits
 * as its temporary file and every one is renamed together by base_file_release,
 * or all removed by base_file_discard: a command's outputs are written whole or
 * not at all, and a failure leaves the earlier call's files as they were.
 * The inputs and outputs of a command are kept in base_plan.h. The writer refuses
 * (BASE_E_REFUSED) a target that is a symbolic link or (once the command's
 * main has called base_file_refuse_inputs) one of the command's inputs, refuses a FIFO, folder or block device (BASE_E_NOT_REGULAR), writes
 * a character device (/dev/null, /dev/full) in place, and never removes
 * anything but its own temporary file and, on release, a regular file the
 * command named as its own earlier output that this call does not make
 * (base_file_hold_stale: a folder never mixes two calls' pictures).
 *
 * How to use:
 *   char *text; size_t len;
 *   if (base_file_read_all("roster.json", BASE_FILE_MAX_BYTES, "a roster", &text, &len, &err) < 0)
 *       return base_exit_for(&err);
 *   ...
 *   base_file_writer *w = base_file_writer_open("out.json", NULL, &err);
 *   if (!w) return -1;
 *   fputs(text, base_file_writer_stream(w));
 *   if (base_file_writer_commit(w, &err) < 0) return -1;   // commit frees w, even on failure
 *   // or base_file_writer_abort(w) to give up (removes only the temporary file)
 *
 *   char *full = base_file_join(dir, name);     // heap, never cut; NULL when out of memory
 *
 *   base_file_hold();                           // a command's start (tableref.c, for the commands that may)
 *   ... every base_file_writer_commit keeps its temporary file ...
 *   base_file_hold_stale("out/report.svg");     // an earlier call's output this call does not write
 *   if (ok) base_file_release(&err); else base_file_discard();   // all renamed, or all removed
 */
#ifndef BASE_FILE_H
#define BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base_error.h"

/* The default cap for a whole-file read: a tableref file is kilobytes; refuse a disk image. */
#define BASE_FILE_MAX_BYTES ((size_t)64 << 20)

/*
 * Opens path for reading: O_NONBLOCK while it is opened (a FIFO with no writer would block the
 * open itself), then fstat; not a regular file is BASE_E_NOT_REGULAR ("PATH: a directory, not
 * WHAT" / "PATH: not a regular file, not WHAT"; `what` may be NULL), more than max_bytes is
 * BASE_E_TOO_LARGE (max_bytes 0: no cap). The blocking mode is restored. Returns the descriptor
 * (close-on-exec) with its size in *size (may be NULL), or -1.
 */
int base_file_open_read(const char *path, size_t max_bytes, const char *what, size_t *size, base_error *err);

/* The whole file, NUL-terminated (the NUL not counted in *len), through base_file_open_read.
 * Caller frees *data. */
int base_file_read_all(const char *path, size_t max_bytes, const char *what, char **data, size_t *len,
                       base_error *err);

/* Notes a file as an input of this command (done by every read above; for files read by other
 * means). Returns 0, or -1 when it cannot be examined (nothing noted). */
int base_file_note_input(const char *path);
/* Forgets one noted input: a command that updates a file in place by design (calibrate board
 * writes the new pose into the calibration it read) says so before writing. */
void base_file_forget_input(const char *path);
/* True when path is (the same device and inode as) a noted input. */
bool base_file_is_input(const char *path);
/* Turns on (a command's main, once) or off the refusal of writes onto noted inputs. Off by
 * default: a library user or a test may load a file and save it again on purpose. */
void base_file_refuse_inputs(bool on);
/* Forgets every noted input (a long-running command between jobs; tests). */
void base_file_forget_inputs(void);

typedef struct base_file_writer base_file_writer;

/* Starts writing path (see the top). `what` names the content in messages ("PATH: cannot write
 * WHAT: reason"; NULL: "PATH: cannot write: reason"). NULL on failure, err says why. */
base_file_writer *base_file_writer_open(const char *path, const char *what, base_error *err);
/* The stream to write through; errors on it are reported by commit. */
FILE *base_file_writer_stream(base_file_writer *w);
/* Appends bytes; returns 0 or -1 (the error is reported again by commit). */
int base_file_writer_write(base_file_writer *w, const void *data, size_t len);
/* Flushes, syncs and renames over the target; frees w. On any failure the temporary file is
 * removed, the target left as it was, and err says why. */
int base_file_writer_commit(base_file_writer *w, base_error *err);
/* Gives up: removes the temporary file and frees w. NULL is ignored. */
void base_file_writer_abort(base_file_writer *w);

/* The writer's checks alone, for an output that cannot be written whole at the end (a recording
 * streamed for an hour): 0 when path may be written (absent, a regular file that is no input of
 * the command, or a character device), else -1 with the writer's message. Open it with O_NOFOLLOW. */
int base_file_check_output(const char *path, const char *what, base_error *err);

/* The whole of data written to path through a writer. */
int base_file_write_all(const char *path, const void *data, size_t len, const char *what, base_error *err);

/* From now on a committed file waits as its temporary file (written and synced) for base_file_release. */
void base_file_hold(void);
/* A folder the command made for its outputs: base_file_discard removes it again when it is empty. */
void base_file_hold_made_dir(const char *dir);
/* path: an output of an earlier call of this command that this call does not write (the referee's report.svg when
 * --svg is not given): removed by base_file_release after every held file is renamed, if it is a regular file (a
 * link, folder or device is left alone); base_file_discard leaves it. Without a hold it is removed at once. */
void base_file_hold_stale(const char *path);
/* Renames every held file over its target, each checked again first (none renamed if one is refused); ends
 * the hold. 0, or -1 with err (the temporary files left are removed). */
int base_file_release(base_error *err);
/* Removes every held temporary file (and the folders made for them, when empty); ends the hold. */
void base_file_discard(void);

/* "dir/name" on the heap (no slash doubled); NULL only when out of memory. */
char *base_file_join(const char *dir, const char *name);

#endif
