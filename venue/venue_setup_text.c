/*
 * venue_setup_text: the texts `tableref venue setup` writes: mosquitto.conf,
 * the ACL and the page's venue.json. Every value in them was checked
 * (venue_setup_check.c) before it gets here.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "venue_setup_int.h"

/* What a table publishes (docs/formats.md, "Venue feed"): the only topics a table's account may write. */
static const char *const table_topics[] = {"status", "state", "picture", "event/#", "call/#"};
#define N_TABLE_TOPICS 5

static void acl_table(FILE *f, const char *event, int t)
{
    fprintf(f, "user table-%d\n", t);
    for (int i = 0; i < N_TABLE_TOPICS; i++)
        fprintf(f, "topic write tableref/%s/table/%d/%s\n", event, t, table_topics[i]);
    /* Read only: a table writes no command, not even its own (a player holding the table's password file would
     * otherwise command in a judge's name). */
    fprintf(f, "topic read tableref/%s/table/%d/command/#\n\n", event, t);
}

char *setup_acl_text(const setup_run *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    const char *event = r->eff.event;
    fprintf(f, "# Written by `tableref venue setup` for event %s (docs/venue.md): who may read and write what.\n"
               "# No anonymous access. Only a judge writes commands, each under their own name: user X may write\n"
               "# .../command/X. (Mosquitto's `pattern` lines apply to every account, tables and streamers too,\n"
               "# so each judge has their own line instead.)\n\n",
            event);
    const cJSON *acc;
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(r->creds, "tables"))
        acl_table(f, event, atoi(acc->string));
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(r->creds, "judges"))
    {
        fprintf(f, "user %s\ntopic read tableref/%s/#\n", acc->string, event);
        fprintf(f, "topic write tableref/%s/table/+/command/%s\n\n", event, acc->string);
    }
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(r->creds, "streamers"))
    {
        fprintf(f, "user %s\n", acc->string);
        for (int i = 0; i < N_TABLE_TOPICS; i++)
            fprintf(f, "topic read tableref/%s/table/+/%s\n", event, table_topics[i]);
        fprintf(f, "\n");
    }
    fclose(f);
    return buf;
}

/* A dotted IPv4 address (what --bind takes for an IPv4 listener), not a host name or an IPv6 address. */
static bool bind_is_ipv4(const char *addr)
{
    int dots = 0;
    for (const char *p = addr; *p; p++) {
        if (*p == '.')
            dots++;
        else if (*p < '0' || *p > '9')
            return false;
    }
    return dots == 3;
}

static void conf_listener(FILE *f, const setup_run *r, int port, bool websockets)
{
    const venue_setup_options *o = &r->eff;
    fprintf(f, "listener %d %s\n", port, o->bind);
    if (websockets) {
        fprintf(f, "protocol websockets\n");
        /* Mosquitto 2.0.11 (Debian 12) hands this listener to libwebsockets, which binds every interface
         * ("*", IPv6 and IPv4) whatever ADDR says, unless it is told IPv4 only: then it binds ADDR
         * (measured: test venue_setup, docs/venue.md). */
        if (bind_is_ipv4(o->bind))
            fprintf(f, "socket_domain ipv4\n");
        /* Over TLS the page is served by `tableref venue serve` (HTTP/1.1): this listener's libwebsockets offers
         * HTTP/2 by ALPN, and Mosquitto 2.0.11 answers a page request with raw HTTP/1.0 header bytes, which a
         * browser speaking HTTP/2 refuses (ERR_HTTP2_PROTOCOL_ERROR). */
        if (r->http_src[0] && !o->tls_cert)
            fprintf(f, "http_dir %s/www\n", r->dir);
        if (o->tls_cert)
            fprintf(f, "certfile %s/tls/cert.pem\nkeyfile %s/tls/key.pem\n", r->dir, r->dir);
    }
    /* No use_username_as_clientid: on Mosquitto 2.0.11 a refused anonymous login naming a client id then unhooks
     * that client's session, so that a second login with its account stands beside it (docs/venue.md). Every
     * client takes an id nobody can guess instead (a table's is new at each run). */
    fprintf(f, "\n");
}

static int queue_limit(const setup_run *r)
{
    int tables = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r->creds, "tables"));
    int n = tables * VENUE_SETUP_QUEUE_PER_TABLE;
    return n < 1000 ? 1000 : n;
}

char *setup_conf_text(const setup_run *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    const venue_setup_options *o = &r->eff;
    const char *dir = r->dir;
    fprintf(f, "# Written by `tableref venue setup` for event %s (docs/venue.md).\n"
               "# Start: mosquitto -c %s/mosquitto.conf%s\n"
               "# After `tableref venue setup --add`: kill -HUP the broker (it reads the password and ACL files\n"
               "# again).\n\n",
            o->event, dir, o->tls_cert ? "   and the page over https: tableref venue serve DIR" : "");
    fprintf(f, "per_listener_settings false\nallow_anonymous false\npassword_file %s/passwd\nacl_file %s/acl\n\n",
            dir, dir);
    fprintf(f, "# The retained status, state, picture and calls of each table survive a restart, and a judge's page\n"
               "# finds what came while it was away (its session) for %s.\n"
               "persistence true\npersistence_location %s/data/\nautosave_interval 60\n"
               "persistent_client_expiration %s\n\n", VENUE_SETUP_SESSION_EXPIRY, dir, VENUE_SETUP_SESSION_EXPIRY);
    fprintf(f, "# Size limits: a packet over max_packet_size is refused from its header, before its body is read.\n"
               "message_size_limit %d\nmax_packet_size %d\n",
            VENUE_SETUP_MESSAGE_LIMIT, VENUE_SETUP_MESSAGE_LIMIT + 4096);
    fprintf(f, "# QoS 1 messages kept for one slow or absent client (a tablet on weak Wi-Fi): a minute of every table\n"
               "# at its fastest (%d a table). A page that misses a call anyway sees the gap in the calls' numbers\n"
               "# and fetches it (docs/formats.md).\nmax_queued_messages %d\nset_tcp_nodelay true\n",
            VENUE_SETUP_QUEUE_PER_TABLE, queue_limit(r));
    fprintf(f, "# As root the broker switches to this unprivileged account, which owns the files it reads.\nuser %s\n\n",
            r->user);
    fprintf(f, "# MQTT for the tables: tableref watch --mqtt HOST:%d\n", o->mqtt_port);
    conf_listener(f, r, o->mqtt_port, false);
    fprintf(f, "# MQTT over WebSockets for the pages%s\n", r->http_src[0] && !o->tls_cert ? " (and the pages over HTTP)" : "");
    conf_listener(f, r, o->ws_port, true);
    fclose(f);
    return buf;
}

/* What the page reads beside it (www/venue.json): the event, every table set up, and the one broker it may use. */
char *setup_page_json(const setup_run *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "format", "tableref.venue.page");
    cJSON_AddNumberToObject(o, "version", 1);
    cJSON_AddStringToObject(o, "event", r->eff.event);
    cJSON *tables = cJSON_AddArrayToObject(o, "tables");
    const cJSON *acc;
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(r->creds, "tables"))
        cJSON_AddItemToArray(tables, cJSON_CreateNumber(atoi(acc->string)));
    cJSON *broker = cJSON_AddObjectToObject(o, "broker");
    cJSON_AddNumberToObject(broker, "ws_port", r->eff.ws_port);
    cJSON_AddBoolToObject(broker, "tls", r->eff.tls_cert != NULL);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    memcpy(line + n, "\n", 2);
    return line;
}
