/*
 * rules_json_int: what the snapshot's reader (rules_json_snapshot.c) and
 * writer (rules_json_snapshot_out.c) share. Not for callers.
 */
#ifndef RULES_JSON_INT_H
#define RULES_JSON_INT_H

#define RULES_SNAPSHOT_FORMAT "tableref.snapshot"
#define RULES_SNAPSHOT_VERSION 1

#include <cjson/cJSON.h>

#include "base_error.h"
#include "rules_snapshot.h"

/* One terrain piece of a snapshot's "terrain" into `snapshot` (a rules_snapshot; rules_json_terrain.c). 0 or -1. */
int rules_json_read_terrain(const cJSON *jt, const char *where, void *snapshot, base_error *err);
/* A terrain piece as JSON (a flat one as it was written before relief was known). */
cJSON *rules_json_terrain_out(const rules_terrain *t);

#endif
