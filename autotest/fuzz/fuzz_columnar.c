/*
 * fuzz_columnar.c - the columnar decoder of the GPU pipeline
 * (algorithms/columnar/from_wkb.c) on arbitrary bytes. The input is cut
 * into a batch: row 0 is all the bytes (trailing bytes after a geometry are
 * ignored), then one row per geometry found by walking the bytes with
 * vsg_wkb_scan (a concatenation of WKB gives one row per geometry; what
 * cannot be read ends the walk as one last row), then a null row.
 *
 * Checked: the report counts every row once; each row's verdict agrees
 * with the CPU engine's scanner (the two must judge the same bytes alike:
 * a geometry is routed to one or the other); a decoded row writes back
 * (vsg_columnar_write_wkb) as well-formed WKB of exactly its announced
 * size, which (when finite) decodes again to the same flags, type and
 * counts.
 */
#include <string.h>

#include "columnar/columnar.h"
#include "fuzz_check.h"
#include "geometry/wkb_scan.h"

#define MAX_ROWS 16

static int64_t coords_of(const vsg_columnar *c, int64_t g)
{
    int64_t p0 = c->geom_part[g], p1 = c->geom_part[g + 1];
    return c->ring_coord[c->part_ring[p1]] - c->ring_coord[c->part_ring[p0]];
}

static void check_offsets(const vsg_columnar *c)
{
    for (int64_t g = 0; g < c->n_geoms; g++)
        FUZZ_CHECK(c->geom_part[g] <= c->geom_part[g + 1]);
    FUZZ_CHECK(c->geom_part[c->n_geoms] == c->n_parts);
    for (int64_t p = 0; p < c->n_parts; p++)
        FUZZ_CHECK(c->part_ring[p] <= c->part_ring[p + 1]);
    FUZZ_CHECK(c->part_ring[c->n_parts] == c->n_rings);
    for (int64_t r = 0; r < c->n_rings; r++)
        FUZZ_CHECK(c->ring_coord[r] <= c->ring_coord[r + 1]);
    FUZZ_CHECK(c->ring_coord[c->n_rings] == c->n_coords);
}

/* The row's written WKB decodes again to the same row. */
static void round_trip(const vsg_columnar *c, int64_t g)
{
    size_t n = vsg_columnar_wkb_size(c, g);
    unsigned char *buf;
    const unsigned char *rows[1];
    size_t sizes[1];
    vsg_wkb_array in = {1, rows, sizes};
    vsg_columnar again;
    vsg_columnar_report rep;
    vsg_wkb_info info;

    FUZZ_CHECK(n >= 5);
    buf = malloc(n);
    if (!buf)
        return;
    vsg_columnar_write_wkb(c, g, buf);
    vsg_wkb_scan(buf, n, &info);
    FUZZ_CHECK(info.verdict == VSG_WKB_OK || info.verdict == VSG_WKB_NONFINITE);
    FUZZ_CHECK(info.consumed == n);
    FUZZ_CHECK(!info.any_m);

    /* A non-finite row need not come back the same: without its M, a point
     * of NaN X and Y but a finite M reads as POINT EMPTY. It never reaches
     * the writer in the pipeline (the CPU engine drops it). */
    rows[0] = buf;
    sizes[0] = n;
    if (!(c->flags[g] & VSG_GF_NONFINITE) && vsg_columnar_from_wkb(&in, &again, &rep) == VSG_OK) {
        FUZZ_CHECK(again.n_geoms == 1);
        FUZZ_CHECK(again.flags[0] == c->flags[g]);
        FUZZ_CHECK(again.type[0] == c->type[g]);
        FUZZ_CHECK(again.n_parts == c->geom_part[g + 1] - c->geom_part[g]);
        FUZZ_CHECK(again.n_coords == coords_of(c, g));
        FUZZ_CHECK(vsg_columnar_wkb_size(&again, 0) == n);
        vsg_columnar_free(&again);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const unsigned char *rows[MAX_ROWS + 2];
    size_t sizes[MAX_ROWS + 2];
    vsg_wkb_array in = {0, rows, sizes};
    vsg_columnar c;
    vsg_columnar_report rep;
    size_t off = 0;

    rows[in.count] = data;
    sizes[in.count++] = size;
    while (off < size && in.count < MAX_ROWS) {
        vsg_wkb_info info;
        vsg_wkb_scan(data + off, size - off, &info);
        rows[in.count] = data + off;
        if (info.verdict != VSG_WKB_OK && info.verdict != VSG_WKB_NONFINITE) {
            sizes[in.count++] = size - off;
            break;
        }
        sizes[in.count++] = info.consumed;
        off += info.consumed;
    }
    rows[in.count] = NULL; /* a null geometry */
    sizes[in.count++] = 0;

    if (vsg_columnar_from_wkb(&in, &c, &rep) != VSG_OK)
        return 0; /* out of memory: nothing else fails the call */

    FUZZ_CHECK(c.n_geoms == (int64_t)in.count);
    FUZZ_CHECK(rep.decoded + rep.nonfinite + rep.nulls + rep.corrupt +
                   rep.unsupported == (int64_t)in.count);
    FUZZ_CHECK(rep.nulls == 1);
    FUZZ_CHECK((rep.corrupt == 0) == (rep.first_corrupt == -1));
    check_offsets(&c);

    for (size_t g = 0; g < in.count; g++) {
        uint8_t f = c.flags[g];
        vsg_wkb_info info;

        if (!rows[g]) {
            FUZZ_CHECK(f == VSG_GF_NULL);
            continue;
        }
        vsg_wkb_scan(sizes[g] ? rows[g] : NULL, sizes[g], &info);
        if (f & VSG_GF_CORRUPT) {
            FUZZ_CHECK(info.verdict == VSG_WKB_CORRUPT);
        } else if (f & VSG_GF_UNSUPPORTED) {
            FUZZ_CHECK(info.verdict != VSG_WKB_CORRUPT);
        } else {
            FUZZ_CHECK(c.type[g] >= VSG_GT_POINT && c.type[g] <= VSG_GT_MULTIPOLYGON);
            FUZZ_CHECK(info.verdict == ((f & VSG_GF_NONFINITE) ? VSG_WKB_NONFINITE
                                                               : VSG_WKB_OK));
            FUZZ_CHECK(!(f & VSG_GF_EMPTY) == (coords_of(&c, (int64_t)g) > 0));
            FUZZ_CHECK(c.type[g] == info.type);
            round_trip(&c, (int64_t)g);
        }
        if (info.verdict == VSG_WKB_CORRUPT)
            FUZZ_CHECK(f & VSG_GF_CORRUPT);
    }
    vsg_columnar_free(&c);
    return 0;
}
