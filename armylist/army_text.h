/*
 * army_text: New Recruit's text export and organisers' packs of lists
 * (army_text.c says what is read). Internal to armylist/: army_read.c
 * calls it for a text file and for the text inside a JSON export.
 *
 * How to use (inside armylist/):
 *   if (army_text_read(text, "lists.txt", file, &err) < 0) ... err names the file
 */
#ifndef ARMY_TEXT_H
#define ARMY_TEXT_H

#include "army_list.h"

/* New Recruit's text export: one new army of f per list in the text. */
int army_text_read(const char *text, const char *name, army_file *f, base_error *err);

#endif
