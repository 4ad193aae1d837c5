/*
 * rules_json_int: what the snapshot's reader (rules_json_snapshot.c) and
 * writer (rules_json_snapshot_out.c) share. Not for callers.
 */
#ifndef RULES_JSON_INT_H
#define RULES_JSON_INT_H

#define RULES_SNAPSHOT_FORMAT "tableref.snapshot"
#define RULES_SNAPSHOT_VERSION 1

#endif
