/* tableref venue setup: a whole Mosquitto set-up for one event (venue/venue_setup.h, docs/venue.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "venue_setup.h"

static const cli_doc setup_doc = {
    "venue setup",
    "usage: tableref venue setup --out DIR --event NAME --tables N --judges A,B,... [--streamers S,...]\n"
    "         [--mqtt-port P] [--ws-port Q] [--bind ADDR] [--tls CERT KEY [--https-port H]] [--http-dir WEB]\n"
    "         [--run-as USER] [--add]\n"
    "\n"
    "Writes a whole Mosquitto 2.0 set-up into DIR: mosquitto.conf (listeners on ADDR,\n"
    "password and ACL files and persistence under DIR, size limits, client ids bound\n"
    "to accounts), acl, passwd (hashed by mosquitto_passwd), and credentials.json\n"
    "with one generated password file per account (DIR/passwords/USER, mode 0600):\n"
    "table-N for each table, one per judge, one per streamer; with --http-dir, a copy\n"
    "of the judge's page in DIR/www with venue.json (the event, every table, the one\n"
    "broker the page may use). Start the broker with\n"
    "  mosquitto -c DIR/mosquitto.conf\n"
    "(as root it runs as --run-as USER, default mosquitto, never root), and with --tls\n"
    "the page over https with  tableref venue serve DIR\n"
    "and give each table machine its user and password file:\n"
    "  tableref watch --mqtt HOST --event NAME --table N --mqtt-user table-N \\\n"
    "    --mqtt-password-file DIR/passwords/table-N   (a copy of it on the table)\n"
    "\n",
    "\nEvery value written into a file is checked first (no control character, names\n"
    "and ports in range; credentials.json's fields too with --add): a bad one is exit 2\n"
    "naming it, with nothing written. A run that fails removes what it made, and only\n"
    "that. Without --add DIR must be new or empty.\n"
    "\nWith --add, accounts already in DIR keep their passwords; new tables (up to N),\n"
    "judges and streamers get theirs, the listeners stay as they were, and the\n"
    "configuration and ACL are written again\n"
    "(kill -HUP the running broker to read them). Without --add an existing set-up is\n"
    "never overwritten.\n"
    "\nExit status: 0 done, 2 bad input or usage, or a file that could not be written.\n",
};

/* Splits "a,b,c" (in place) into names; -1 when there are too many. */
static int split_names(char *text, const char **names, int *n, const char *option)
{
    for (char *tok = strtok(text, ","); tok; tok = strtok(NULL, ",")) {
        if (*n >= VENUE_SETUP_MAX_NAMES) {
            fprintf(stderr, "tableref venue setup: %s: more than %d names\n", option, VENUE_SETUP_MAX_NAMES);
            return -1;
        }
        names[(*n)++] = tok;
    }
    return 0;
}

/* `--tls CERT KEY` takes two values: the KEY is taken out of argv before the option table reads it. */
static int take_tls_key(int *argc, char **argv, const char **key)
{
    for (int i = 1; i < *argc; i++)
        if (strcmp(argv[i], "--tls") == 0) {
            if (i + 2 >= *argc || cli_is_option(argv[i + 1]) || cli_is_option(argv[i + 2])) {
                fprintf(stderr, "tableref venue setup: --tls takes two files: CERT KEY\n");
                return -1;
            }
            *key = argv[i + 2];
            memmove(argv + i + 2, argv + i + 3, (size_t)(*argc - i - 3) * sizeof *argv);
            (*argc)--;
            return 0;
        }
    return 0;
}

static int cmd_venue_setup(int argc, char **argv)
{
    venue_setup_options o;
    venue_setup_options_default(&o);
    const char *judges = NULL, *streamers = NULL;
    double tables = 0, mqtt_port = o.mqtt_port, ws_port = o.ws_port, https_port = o.https_port;
    int add = 0;
    if (!cli_dumping(argc, argv) && !cli_wants_help(argc, argv) && take_tls_key(&argc, argv, &o.tls_key) < 0)
        return EXIT_BAD_INPUT;
    const cli_opt opts[] = {
        CLI_OUT_DIR("--out", &o.dir, "DIR", "mosquitto.conf acl passwd credentials.json passwords/*",
                    "where the set-up goes (made if missing)"),
        CLI_STRING("--event", &o.event, "NAME", "the event's name, a topic level: letters, digits, '-', '_'"),
        CLI_WHOLE("--tables", &tables, "N", 0, VENUE_SETUP_MAX_TABLES,
                  "tables 1..N, one account each (table-1, ...); with --add the new total"),
        CLI_STRING("--judges", &judges, "A,B,...", "the judges' user names: they command under their own name"),
        CLI_STRING("--streamers", &streamers, "S,...", "read-only accounts for streamers' overlays and spectators"),
        CLI_WHOLE("--mqtt-port", &mqtt_port, "P", 1, 65535, "the tables' MQTT port (default 1883)"),
        CLI_WHOLE("--ws-port", &ws_port, "Q", 1, 65535, "the pages' MQTT over WebSockets port (default 9001)"),
        CLI_STRING("--bind", &o.bind, "ADDR",
                   "the address both listeners bind (default 0.0.0.0: every IPv4 interface)"),
        CLI_STRING("--tls", &o.tls_cert, "CERT KEY",
                   "TLS on the pages' WebSockets listener (wss://) with this certificate and\n"
                   "key (PEM, copied into DIR/tls); the page over https from `tableref venue\n"
                   "serve DIR`; the tables' MQTT listener stays plain (keep it on the wired network)"),
        CLI_WHOLE("--https-port", &https_port, "H", 1, 65535, "with --tls: the page's https port (default 8443)"),
        CLI_INPUT("--http-dir", &o.http_dir, "WEB", "serve the judge's page from this folder on the WebSockets port"),
        CLI_STRING("--run-as", &o.run_as, "USER",
                   "the unprivileged account Mosquitto runs as (default: mosquitto when\n"
                   "run as root, else the one running this; never root)"),
        CLI_FLAG("--add", &add, 1, "add tables, judges and streamers to the set-up in DIR"),
    };
    int n_pos = cli_parse(&setup_doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!o.dir)
        return cli_missing(setup_doc.command, "--out DIR (where the set-up goes)"), EXIT_BAD_INPUT;
    if (!o.event)
        return cli_missing(setup_doc.command, "--event NAME"), EXIT_BAD_INPUT;
    if (!add && (tables < 1 || !judges))
        return cli_missing(setup_doc.command, "--tables N and --judges A,B,..."), EXIT_BAD_INPUT;
    char *judge_text = judges ? strdup(judges) : NULL, *streamer_text = streamers ? strdup(streamers) : NULL;
    int rc = EXIT_BAD_INPUT;
    if ((judge_text && split_names(judge_text, o.judges, &o.n_judges, "--judges") < 0) ||
        (streamer_text && split_names(streamer_text, o.streamers, &o.n_streamers, "--streamers") < 0))
        goto done;
    o.tables = (int)tables, o.mqtt_port = (int)mqtt_port, o.ws_port = (int)ws_port, o.https_port = (int)https_port;
    o.add = add;
    base_error err;
    if (venue_setup_write(&o, &err) < 0) {
        fprintf(stderr, "tableref venue setup: %s\n", err.msg);
        goto done;
    }
    printf("%s/mosquitto.conf written: start the broker with  mosquitto -c %s/mosquitto.conf\n"
           "accounts and their password files: %s/credentials.json\n",
           o.dir, o.dir, o.dir);
    rc = 0;
done:
    free(judge_text);
    free(streamer_text);
    return rc;
}

static const cli_doc doc = {
    "venue",
    "usage: tableref venue setup --out DIR --event NAME --tables N --judges A,B,... [...]\n"
    "       tableref venue serve DIR\n\n"
    "The venue's broker (docs/venue.md).\n\n",
    "\nExit status: 0 done, 2 bad input or usage.\n",
};

int cmd_venue(int argc, char **argv)
{
    static const cli_step steps[] = {
        {"setup", cmd_venue_setup, "a whole Mosquitto set-up: configuration, ACL, one account per table"},
        {"serve", cmd_venue_serve, "the judge's page over https, for a set-up made with --tls"},
    };
    return cli_dispatch(&doc, steps, CLI_N(steps), argc, argv);
}
