/* bench_json.c: JSON output, compensated sums and a monotonic clock for the
 * benchmark tools (see bench_json.h). */
#define _POSIX_C_SOURCE 200809L

#include "bench_json.h"

#include <math.h>
#include <time.h>

void bench_json_string(FILE *out, const char *s)
{
    if (s == NULL) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);   /* UTF-8 passes through unchanged */
        }
    }
    fputc('"', out);
}

void bench_json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_sum_add(bench_sum *s, double v)
{
    double t = s->sum + v;
    if (fabs(s->sum) >= fabs(v))
        s->comp += (s->sum - t) + v;
    else
        s->comp += (v - t) + s->sum;
    s->sum = t;
}

double bench_sum_value(const bench_sum *s)
{
    return s->sum + s->comp;
}
