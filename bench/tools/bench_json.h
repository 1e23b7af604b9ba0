/* bench_json.h: the little JSON and timing help the benchmark tools share.
 *
 * The tools print one JSON object on stdout for the rail runner
 * (bench/rail.py) to parse; strings from GDAL (error messages, field values)
 * go through bench_json_string so that any byte is escaped correctly. */
#ifndef VSGBENCH_JSON_H
#define VSGBENCH_JSON_H

#include <stdio.h>

/* Writes s as a JSON string literal (quotes included); NULL as null. */
void bench_json_string(FILE *out, const char *s);

/* Writes a double that reads back to the same value; NaN and infinities,
 * which JSON lacks, as null. */
void bench_json_number(FILE *out, double v);

/* Seconds on a monotonic clock. */
double bench_now(void);

/* Neumaier compensated sum: totals over millions of features stay exact to
 * the last bits whatever the order of magnitude of the terms. */
typedef struct {
    double sum;
    double comp;
} bench_sum;

void bench_sum_add(bench_sum *s, double v);
double bench_sum_value(const bench_sum *s);

#endif
