/*
 * base_text: UTF-8 text that stays text. Names come from army lists, rosters and
 * the command line; they are cut to fit fields, printed on terminals and put
 * into Pango markup. Cutting a name at a byte count can split a character
 * (a roster that is no longer valid JSON, a label Pango refuses); a raw control
 * character or ANSI escape from a list can take over a terminal; a `&` or `<`
 * breaks markup. Every such place goes through here, one family of escapers,
 * one per place text is shown:
 *   a terminal     base_text_terminal_stream (the program's stdout and stderr pass through it:
 *                  every message, table and name printed), base_text_escape_terminal (one line)
 *   JSON           base_text_escape_json (every JSON tableref writes: files, stdout, the event
 *                  log, the venue's messages; through base_json_print)
 *   subtitles      base_text_escape_subtitle (WebVTT cue text)
 *   pages          base_text_escape_visible (drawn text), base_text_escape_markup (Pango markup)
 * Each writes a control character (C0 but the newline where a line may break, DEL, C1
 * U+0080..U+009F, hence every ESC and OSC sequence) and each invalid byte as visible text.
 *
 * How to use:
 *   char name[64];
 *   base_text_copy(name, sizeof name, long_name);        // cut on a character boundary
 *   printf("%.*s\n", (int)base_text_cut(s, 40), s);      // at most 40 bytes, whole characters
 *   if (!base_text_valid(s, strlen(s))) ...              // refuse invalid UTF-8
 *   char *shown = base_text_escape_terminal(name);       // "\x1b[31m" printed as text
 *   char *markup = base_text_escape_markup(name);        // "&amp;", "&lt;", ...
 *   free(shown); free(markup);
 *   stdout = base_text_terminal_stream(STDOUT_FILENO, isatty(STDOUT_FILENO));  // a program's start
 *
 * The escapers return a new string (caller frees) or NULL when out of memory.
 * An invalid byte is never passed on: it becomes the four characters "\xNN".
 */
#ifndef BASE_TEXT_H
#define BASE_TEXT_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* True when the len bytes at s are well-formed UTF-8 (no overlong forms, no surrogates, at most
 * U+10FFFF). A NUL inside counts as a character. */
bool base_text_valid(const char *s, size_t len);
/* The length of the longest well-formed prefix of those len bytes: the offset of the first bad byte. */
size_t base_text_valid_prefix(const char *s, size_t len);

/* The length of the longest prefix of the string s that is at most `budget` bytes and ends on a
 * character boundary (an invalid byte counts as a one-byte character). For "%.*s" and copies. */
size_t base_text_cut(const char *s, size_t budget);

/* Copies src into out (cap bytes with the NUL) cut on a character boundary; returns true when all
 * of src fitted. cap 0 writes nothing. */
bool base_text_copy(char *out, size_t cap, const char *src);

/* snprintf that cuts on a character boundary: when the text does not fit, a character split by the
 * cut is dropped whole. Returns true when all of it fitted. */
bool base_text_format(char *out, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Drops an incomplete character left at the end of s by a byte-count cut (snprintf into a fixed
 * buffer); a whole string is left as it is. */
void base_text_trim_cut(char *s);

/* src with every byte that is not part of a valid UTF-8 character written as "\xNN". */
char *base_text_escape_invalid(const char *src);

/* For text drawn on a page or picture: invalid bytes and control characters other than the newline
 * written as "\xNN" (a font shows a control as a box), everything else as it is. */
char *base_text_escape_visible(const char *src);

/* For a terminal or a log line: invalid bytes, C0 controls (including newline and tab), DEL and
 * the C1 controls U+0080..U+009F written as "\xNN" (a C1 control as its two bytes); a backslash
 * is written "\\" so the escapes cannot be forged. */
char *base_text_escape_terminal(const char *src);

/* For Pango markup: & < > " ' as entities, controls and invalid bytes as the visible text "\xNN"
 * (markup refuses them and Pango warns on invalid UTF-8). */
char *base_text_escape_markup(const char *src);

/* For WebVTT cue text: & < > as entities (a cue's text is markup), controls but the newline and
 * invalid bytes as "\xNN". */
char *base_text_escape_subtitle(const char *src);

/* For JSON text as cJSON prints it: DEL and the C1 controls (left raw by cJSON, obeyed by
 * terminals) as "\u007f".."\u009f", an invalid byte as the escaped text "\\xNN"; everything
 * else as it is (cJSON escapes C0, quotes and backslashes itself). Only strings can hold such
 * bytes, so the whole printed text is passed. */
char *base_text_escape_json(const char *json);

/*
 * A stream writing to descriptor fd with every control character but newline and tab, and every
 * invalid byte, written as "\xNN" (a backslash stays itself: JSON printed through it stays JSON).
 * A character cut by the stream's buffer is held until its rest comes. tableref sets its stdout
 * and stderr to such streams at its start (glibc's stdout is a variable), so nothing printed can
 * reach the terminal raw. Line buffered or fully buffered; NULL when out of memory.
 */
FILE *base_text_terminal_stream(int fd, bool line_buffered);

#endif
