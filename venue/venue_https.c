/* venue_https: the page over https, HTTP/1.1 only (venue_https.h). */
#define _GNU_SOURCE /* realpath */
#include "venue_https.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

struct venue_https {
    venue_https_options o;
    char root[PATH_MAX];
    int fd, port;
    SSL_CTX *ctx;
    atomic_int clients;
};

typedef struct conn {
    venue_https *s;
    int fd;
} conn;

void venue_https_options_default(venue_https_options *o)
{
    memset(o, 0, sizeof *o);
    o->bind = "0.0.0.0";
    o->port = 8443;
    o->max_clients = 64;
    o->timeout_ms = 10000;
}

/* "http/1.1" when the browser offers it (it always does); never "h2". */
static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                       unsigned int inlen, void *arg)
{
    (void)ssl, (void)arg;
    static const unsigned char http11[] = "\x08http/1.1";
    unsigned char *chosen = NULL;
    if (SSL_select_next_proto(&chosen, outlen, http11, sizeof http11 - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK; /* no ALPN at all: the client then speaks HTTP/1.1 */
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

static int ssl_error(base_error *err, const char *what, const char *path)
{
    char text[256] = "";
    unsigned long e = ERR_get_error();
    if (e)
        ERR_error_string_n(e, text, sizeof text);
    ERR_clear_error();
    return base_error_setc(err, BASE_E_INVALID, "%s: %s: %s", path, what, text[0] ? text : "unknown TLS error");
}

static int make_ctx(venue_https *s, base_error *err)
{
    s->ctx = SSL_CTX_new(TLS_server_method());
    if (!s->ctx)
        return ssl_error(err, "cannot start TLS", "venue serve");
    SSL_CTX_set_min_proto_version(s->ctx, TLS1_2_VERSION);
    if (SSL_CTX_use_certificate_chain_file(s->ctx, s->o.cert) != 1)
        return ssl_error(err, "not a PEM certificate", s->o.cert);
    if (SSL_CTX_use_PrivateKey_file(s->ctx, s->o.key, SSL_FILETYPE_PEM) != 1)
        return ssl_error(err, "not a PEM private key", s->o.key);
    if (SSL_CTX_check_private_key(s->ctx) != 1)
        return ssl_error(err, "the key does not match the certificate", s->o.key);
    SSL_CTX_set_alpn_select_cb(s->ctx, select_alpn, NULL);
    return 0;
}

static int listen_on(venue_https *s, base_error *err)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai = NULL;
    char port[16];
    snprintf(port, sizeof port, "%d", s->o.port);
    int rc = getaddrinfo(s->o.bind, port, &hints, &ai);
    if (rc != 0)
        return base_error_setc(err, BASE_E_NOT_FOUND, "%s: %s", s->o.bind, gai_strerror(rc));
    int e = 0;
    for (struct addrinfo *a = ai; a && s->fd < 0; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        int one = 1;
        if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
            bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 64) == 0) {
            s->fd = fd;
            struct sockaddr_storage ss;
            socklen_t n = sizeof ss;
            if (getsockname(fd, (struct sockaddr *)&ss, &n) == 0)
                s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                         : ((struct sockaddr_in *)&ss)->sin_port);
        } else {
            e = errno;
            if (fd >= 0)
                close(fd);
        }
    }
    freeaddrinfo(ai);
    return s->fd >= 0 ? 0
                      : base_error_setc(err, BASE_E_IO, "%s:%d: cannot listen: %s", s->o.bind, s->o.port, strerror(e));
}

venue_https *venue_https_new(const venue_https_options *o, base_error *err)
{
    venue_https *s = calloc(1, sizeof *s);
    if (!s) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    s->o = *o;
    s->fd = -1;
    atomic_init(&s->clients, 0);
    if (!o->root || !realpath(o->root, s->root)) {
        base_error_setc(err, BASE_E_NOT_FOUND, "%s: %s", o->root ? o->root : "(no folder)", strerror(errno));
        venue_https_free(s);
        return NULL;
    }
    if (make_ctx(s, err) < 0 || listen_on(s, err) < 0) {
        venue_https_free(s);
        return NULL;
    }
    return s;
}

int venue_https_port(const venue_https *s) { return s->port; }

/* ---- one connection ---- */

static const char *content_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {{".html", "text/html; charset=utf-8"},
                 {".js", "text/javascript; charset=utf-8"},
                 {".css", "text/css; charset=utf-8"},
                 {".json", "application/json"}};
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "application/octet-stream";
}

static void reply_status(SSL *ssl, int code, const char *word)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n%s\n",
                     code, word, strlen(word) + 1, word);
    SSL_write(ssl, head, n);
}

/* The request's path, checked: letters, digits and . _ - / only, no segment beginning with a dot ("..", hidden
 * files), "/" meaning index.html. False for anything else. */
static bool clean_path(const char *target, char *out, size_t cap)
{
    size_t n = strcspn(target, "?#");
    if (n == 0 || target[0] != '/' || n >= cap - 16)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = target[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-' || c == '/';
        if (!ok || (c == '.' && target[i - 1] == '/'))
            return false;
    }
    snprintf(out, cap, "%.*s%s", (int)n, target, target[n - 1] == '/' ? "index.html" : "");
    return true;
}

static void serve_file(venue_https *s, SSL *ssl, const char *target, bool head_only)
{
    char rel[1024], path[PATH_MAX * 2], real[PATH_MAX];
    if (!clean_path(target, rel, sizeof rel))
        return reply_status(ssl, 404, "Not Found");
    snprintf(path, sizeof path, "%s%s", s->root, rel);
    size_t rn = strlen(s->root);
    struct stat st;
    int fd = -1;
    if (!realpath(path, real) || strncmp(real, s->root, rn) != 0 || real[rn] != '/' ||
        (fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)) < 0 || fstat(fd, &st) != 0 ||
        !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return reply_status(ssl, 404, "Not Found");
    }
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %lld\r\nCache-Control: no-cache\r\n"
                     "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n",
                     content_type(real), (long long)st.st_size);
    bool ok = SSL_write(ssl, head, n) == n;
    char buf[16384];
    ssize_t got;
    while (ok && !head_only && (got = read(fd, buf, sizeof buf)) > 0)
        ok = SSL_write(ssl, buf, (int)got) == (int)got;
    close(fd);
}

/* Reads the request's head (up to its blank line, 8 kB at most) and answers it. */
static void answer(venue_https *s, SSL *ssl)
{
    char req[8192];
    size_t have = 0;
    while (have < sizeof req - 1) {
        int got = SSL_read(ssl, req + have, (int)(sizeof req - 1 - have));
        if (got <= 0)
            return;
        have += (size_t)got;
        req[have] = 0;
        if (strstr(req, "\r\n\r\n"))
            break;
    }
    char method[8], target[2048], version[16];
    if (!strstr(req, "\r\n\r\n") || sscanf(req, "%7s %2047s %15s", method, target, version) != 3 ||
        strncmp(version, "HTTP/1.", 7) != 0)
        return reply_status(ssl, 400, "Bad Request");
    bool head_only = strcmp(method, "HEAD") == 0;
    if (!head_only && strcmp(method, "GET") != 0)
        return reply_status(ssl, 405, "Method Not Allowed");
    serve_file(s, ssl, target, head_only);
}

static void *serve_conn(void *arg)
{
    conn *c = arg;
    venue_https *s = c->s;
    struct timeval tv = {s->o.timeout_ms / 1000, (s->o.timeout_ms % 1000) * 1000};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    SSL *ssl = SSL_new(s->ctx);
    if (ssl && SSL_set_fd(ssl, c->fd) == 1 && SSL_accept(ssl) == 1) {
        answer(s, ssl);
        SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    ERR_clear_error();
    close(c->fd);
    atomic_fetch_sub(&s->clients, 1);
    free(c);
    return NULL;
}

int venue_https_run(venue_https *s, volatile sig_atomic_t *stop)
{
    while (!*stop) {
        struct pollfd p = {s->fd, POLLIN, 0};
        int r = poll(&p, 1, 200);
        if (r <= 0)
            continue;
        int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE)
                continue;
            return -1;
        }
        conn *c = malloc(sizeof *c);
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (c && atomic_fetch_add(&s->clients, 1) < s->o.max_clients) {
            *c = (conn){s, fd};
            if (pthread_create(&t, &attr, serve_conn, c) == 0)
                c = NULL, fd = -1;
            else
                atomic_fetch_sub(&s->clients, 1);
        } else if (c) {
            atomic_fetch_sub(&s->clients, 1);
        }
        pthread_attr_destroy(&attr);
        free(c);
        if (fd >= 0)
            close(fd); /* too many at once: this one is closed, the browser tries again */
    }
    return 0;
}

void venue_https_free(venue_https *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    /* Connections end within their timeout: wait for them, so that none uses the context after it is freed. */
    for (int waited = 0; atomic_load(&s->clients) > 0 && waited < s->o.timeout_ms + 1000; waited += 20)
        nanosleep(&(struct timespec){0, 20000000L}, NULL);
    if (atomic_load(&s->clients) == 0)
        SSL_CTX_free(s->ctx);
    free(s);
}
