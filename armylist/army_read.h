/*
 * army_read: the readers behind army_file_read, shared inside armylist/
 * (the catalogue reader uses the zip and XML helpers too). Internal.
 *
 * How to use (inside armylist/):
 *   char *data; size_t size;
 *   if (army_read_whole_file(path, &data, &size, err) < 0) return -1;
 *   void *doc = army_xml_parse(data, size, path, err);      // a .ros; NULL: err says the line
 *   ... army_read_tree(top, path, file, err) ... xmlFreeDoc(doc); free(data);
 */
#ifndef ARMY_READ_H
#define ARMY_READ_H

#include <stddef.h>

#include "army_list.h"
#include "army_tree.h"

/* The whole file, NUL-terminated; refuses files over 64 MB. Caller frees *data. */
int army_read_whole_file(const char *path, char **data, size_t *size, base_error *err);
/* The first entry of a zip in memory whose name ends with one of `suffixes` (NULL-terminated). */
int army_unzip_first(const void *data, size_t size, const char *name, const char *const *suffixes, char **out,
                     size_t *out_size, char *entry_name, size_t entry_cap, base_error *err);
/* A libxml2 document (xmlDoc *) or NULL with "NAME: line L: what" in err. Caller frees with xmlFreeDoc. */
void *army_xml_parse(const char *data, size_t size, const char *name, base_error *err);
/* The units of a roster tree as one new army of f. */
int army_read_tree(const army_node *top, const char *name, army_file *f, base_error *err);

#endif
