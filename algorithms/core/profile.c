/*
 * profile.c - the stage trace behind VSGPU_PROFILE (schema in
 * docs/profiling.md).
 *
 * One record per (stage, device), in order of first appearance, so a
 * batched statement produces one line per stage rather than one per batch.
 * Records are few (tens), so lookup is a linear scan.
 *
 * Beside the records, spans: each stage as it ran, when and on which
 * thread, so that a trace shows what overlapped (the reading thread, the
 * read-ahead helper, the reader). A span is kept for every record added
 * at its stage's end (vsg_profile_add) or with its times
 * (vsg_profile_add_span); totals added later (the executor's stages, a
 * batch's feature building) have none. At most VSG_PROFILE_MAX_SPANS are
 * kept; the rest are counted.
 */
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char *stage;
    char *device;
    double elapsed_s;
    int64_t rows_in, rows_out, bytes_h2d, bytes_d2h, pool_peak;
} record;

/* Records by (name, device), in order of first appearance. */
typedef struct {
    record *rec;
    size_t n, cap;
} record_list;

typedef struct {
    const char *stage;     /* the record's name (records never free theirs) */
    int thread;            /* index into vsg_profile.threads                */
    double t0, t1;         /* vsg_now_s()                                   */
} span;

#define VSG_PROFILE_MAX_SPANS 100000
#define VSG_PROFILE_MAX_THREADS 64

/* The stages, and apart from them the steps of VSGPU_PROFILE_STEPS (a
 * step's record: stage = its name, rows_in = its calls), so that total_s
 * stays the sum of the stages; the spans, with times from origin. */
struct vsg_profile {
    record_list stages, steps;
    double origin;
    span *spans;
    size_t n_spans, cap_spans, spans_dropped;
    uint64_t threads[VSG_PROFILE_MAX_THREADS];   /* by first appearance */
    int n_threads;
};

uint64_t vsg_profile_thread_id(void)
{
    return (uint64_t)pthread_self();
}

double vsg_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

vsg_profile *vsg_profile_create(void)
{
    vsg_profile *p = calloc(1, sizeof(vsg_profile));
    if (p)
        p->origin = vsg_now_s();
    return p;
}

static void list_free(record_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->rec[i].stage);
        free(l->rec[i].device);
    }
    free(l->rec);
}

void vsg_profile_destroy(vsg_profile *p)
{
    if (!p)
        return;
    list_free(&p->stages);
    list_free(&p->steps);
    free(p->spans);
    free(p);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The record of (name, device) in l, appended (zeroed) when new; NULL when
 * out of memory (profiling never fails a statement: the record is simply
 * not kept). */
static record *find_or_add(record_list *l, const char *name, const char *device)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->rec[i].stage, name) == 0 && strcmp(l->rec[i].device, device) == 0)
            return &l->rec[i];
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        record *q = realloc(l->rec, cap * sizeof *q);
        if (!q)
            return NULL;
        l->rec = q;
        l->cap = cap;
    }
    record *r = &l->rec[l->n];
    memset(r, 0, sizeof *r);
    r->stage = dup_str(name);
    r->device = dup_str(device);
    if (!r->stage || !r->device) {
        free(r->stage);
        free(r->device);
        return NULL;
    }
    l->n++;
    return r;
}

/* Thread t's index, given on first appearance; -1 past the table. */
static int thread_index(vsg_profile *p, uint64_t t)
{
    for (int i = 0; i < p->n_threads; i++)
        if (p->threads[i] == t)
            return i;
    if (p->n_threads == VSG_PROFILE_MAX_THREADS)
        return -1;
    p->threads[p->n_threads] = t;
    return p->n_threads++;
}

static void span_add(vsg_profile *p, const char *stage, double t0, double t1, uint64_t thread)
{
    int k = thread_index(p, thread);
    if (k < 0 || p->n_spans == VSG_PROFILE_MAX_SPANS) {
        p->spans_dropped++;
        return;
    }
    if (p->n_spans == p->cap_spans) {
        size_t cap = p->cap_spans ? 2 * p->cap_spans : 256;
        span *q = realloc(p->spans, cap * sizeof *q);
        if (!q) {
            p->spans_dropped++;
            return;
        }
        p->spans = q;
        p->cap_spans = cap;
    }
    p->spans[p->n_spans++] = (span){stage, k, t0, t1};
}

/* Adds to the record of (stage, device); returns it, or NULL when it could
 * not be kept. */
static const record *record_add(vsg_profile *p, const char *stage, const char *device,
                                double elapsed_s, int64_t rows_in, int64_t rows_out,
                                int64_t bytes_h2d, int64_t bytes_d2h, int64_t pool_peak)
{
    if (!p || !stage || !device)
        return NULL;
    record *r = find_or_add(&p->stages, stage, device);
    if (!r)
        return NULL;
    r->elapsed_s += elapsed_s;
    r->rows_in += rows_in;
    r->rows_out += rows_out;
    r->bytes_h2d += bytes_h2d;
    r->bytes_d2h += bytes_d2h;
    if (pool_peak > r->pool_peak)
        r->pool_peak = pool_peak;
    return r;
}

void vsg_profile_add_total(vsg_profile *p, const char *stage, const char *device,
                           double elapsed_s, int64_t rows_in, int64_t rows_out,
                           int64_t bytes_h2d, int64_t bytes_d2h, int64_t pool_peak)
{
    record_add(p, stage, device, elapsed_s, rows_in, rows_out, bytes_h2d, bytes_d2h, pool_peak);
}

void vsg_profile_add_span(vsg_profile *p, const char *stage, const char *device, double t0,
                          double t1, uint64_t thread, int64_t rows_in, int64_t rows_out)
{
    const record *r = record_add(p, stage, device, t1 - t0, rows_in, rows_out, 0, 0, 0);
    if (r)
        span_add(p, r->stage, t0, t1, thread);
}

void vsg_profile_add(vsg_profile *p, const char *stage, const char *device,
                     double elapsed_s, int64_t rows_in, int64_t rows_out,
                     int64_t bytes_h2d, int64_t bytes_d2h, int64_t pool_peak)
{
    const record *r = record_add(p, stage, device, elapsed_s, rows_in, rows_out, bytes_h2d,
                                 bytes_d2h, pool_peak);
    if (r) {
        double t1 = vsg_now_s();
        span_add(p, r->stage, t1 - elapsed_s, t1, vsg_profile_thread_id());
    }
}

void vsg_profile_add_step(vsg_profile *p, const char *name, const char *device,
                          double elapsed_s, int64_t calls)
{
    if (!p || !name || !device)
        return;
    record *r = find_or_add(&p->steps, name, device);
    if (!r)
        return;
    r->elapsed_s += elapsed_s;
    r->rows_in += calls;
}

size_t vsg_profile_step_count(const vsg_profile *p)
{
    return p ? p->steps.n : 0;
}

int vsg_profile_get_step(const vsg_profile *p, size_t i, const char **name,
                         const char **device, double *elapsed_s, int64_t *calls)
{
    if (!p || i >= p->steps.n)
        return 0;
    const record *r = &p->steps.rec[i];
    if (name) *name = r->stage;
    if (device) *device = r->device;
    if (elapsed_s) *elapsed_s = r->elapsed_s;
    if (calls) *calls = r->rows_in;
    return 1;
}

size_t vsg_profile_count(const vsg_profile *p)
{
    return p ? p->stages.n : 0;
}

int vsg_profile_get(const vsg_profile *p, size_t i, const char **stage,
                    const char **device, double *elapsed_s, int64_t *rows_in,
                    int64_t *rows_out, int64_t *bytes_h2d, int64_t *bytes_d2h,
                    int64_t *pool_peak)
{
    if (!p || i >= p->stages.n)
        return 0;
    const record *r = &p->stages.rec[i];
    if (stage) *stage = r->stage;
    if (device) *device = r->device;
    if (elapsed_s) *elapsed_s = r->elapsed_s;
    if (rows_in) *rows_in = r->rows_in;
    if (rows_out) *rows_out = r->rows_out;
    if (bytes_h2d) *bytes_h2d = r->bytes_h2d;
    if (bytes_d2h) *bytes_d2h = r->bytes_d2h;
    if (pool_peak) *pool_peak = r->pool_peak;
    return 1;
}

/* Length of the well-formed UTF-8 sequence at s (at most len bytes), 0 if
 * the bytes there are not one (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;   /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    return n;
}

/* JSON string body: quotes, backslashes and control characters escaped;
 * well-formed UTF-8 written as it is, and every byte that is not part of
 * well-formed UTF-8 (the SQL text is the user's, in any encoding) as
 * U+FFFD, so that the file is valid JSON and valid UTF-8. len bounds the
 * input, so a KEY of "KEY=VALUE" can be written without a copy. */
static void write_escaped(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            size_t n = utf8_sequence((const unsigned char *)s + i, len - i);
            if (n == 0) {
                fputs("\\ufffd", f);
                continue;
            }
            fwrite(s + i, 1, n, f);
            i += n - 1;
            continue;
        }
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc((int)c, f);
        }
    }
    fputc('"', f);
}

/* JSON has no NaN or Infinity. */
static void write_number(FILE *f, double v)
{
    fprintf(f, "%.9g", isfinite(v) ? v : 0.0);
}

vsg_status vsg_profile_write_json(const vsg_profile *p, const char *path,
                                  const char *const *meta)
{
    if (!p || !path)
        return VSG_ERR_INVALID_ARG;
    FILE *f = fopen(path, "w");
    if (!f)
        return VSG_ERR_IO;   /* errno says why */

    fputs("{\n  \"version\": 1,\n  \"statement\": {", f);
    for (size_t i = 0; meta && meta[i]; i++) {
        const char *eq = strchr(meta[i], '=');
        size_t klen = eq ? (size_t)(eq - meta[i]) : strlen(meta[i]);
        const char *val = eq ? eq + 1 : "";
        fputs(i ? ",\n    " : "\n    ", f);
        write_escaped(f, meta[i], klen);
        fputs(": ", f);
        write_escaped(f, val, strlen(val));
    }
    fputs(meta && meta[0] ? "\n  },\n  \"stages\": [" : "},\n  \"stages\": [", f);

    double total = 0.0;
    for (size_t i = 0; i < p->stages.n; i++) {
        const record *r = &p->stages.rec[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"stage\": ", f);
        write_escaped(f, r->stage, strlen(r->stage));
        fputs(", \"device\": ", f);
        write_escaped(f, r->device, strlen(r->device));
        fputs(", \"elapsed_s\": ", f);
        write_number(f, r->elapsed_s);
        fprintf(f, ", \"rows_in\": %lld, \"rows_out\": %lld, \"bytes_h2d\": %lld, "
                   "\"bytes_d2h\": %lld, \"pool_peak_bytes\": %lld}",
                (long long)r->rows_in, (long long)r->rows_out,
                (long long)r->bytes_h2d, (long long)r->bytes_d2h,
                (long long)r->pool_peak);
        if (isfinite(r->elapsed_s))
            total += r->elapsed_s;
    }
    fputs(p->stages.n ? "\n  ]" : "]", f);
    if (p->steps.n > 0) {
        fputs(",\n  \"steps\": [", f);
        for (size_t i = 0; i < p->steps.n; i++) {
            const record *r = &p->steps.rec[i];
            fputs(i ? ",\n    {\"step\": " : "\n    {\"step\": ", f);
            write_escaped(f, r->stage, strlen(r->stage));
            fputs(", \"device\": ", f);
            write_escaped(f, r->device, strlen(r->device));
            fputs(", \"elapsed_s\": ", f);
            write_number(f, r->elapsed_s);
            fprintf(f, ", \"calls\": %lld}", (long long)r->rows_in);
        }
        fputs("\n  ]", f);
    }
    if (p->n_spans > 0 || p->spans_dropped > 0) {
        fputs(",\n  \"spans\": [", f);
        for (size_t i = 0; i < p->n_spans; i++) {
            const span *sp = &p->spans[i];
            fputs(i ? ",\n    {\"stage\": " : "\n    {\"stage\": ", f);
            write_escaped(f, sp->stage, strlen(sp->stage));
            fprintf(f, ", \"thread\": %d, \"start_s\": ", sp->thread);
            write_number(f, sp->t0 - p->origin);
            fputs(", \"end_s\": ", f);
            write_number(f, sp->t1 - p->origin);
            fputc('}', f);
        }
        fputs(p->n_spans ? "\n  ]" : "]", f);
        fprintf(f, ",\n  \"spans_dropped\": %lld", (long long)p->spans_dropped);
    }
    fputs(",\n  \"total_s\": ", f);
    write_number(f, total);
    fputs("\n}\n", f);

    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return VSG_ERR_IO;
    return VSG_OK;
}
