/*
 * gather.c - the columnar gather stage (stages/stages.h): the logic is in
 * elements/columnar/gather.h; this file sizes the output level by level
 * (count, scan, one scalar read per level) and fills it.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <string.h>

#include "elements/columnar/gather.h"

#ifdef VSGPU_HAVE_CUDA
#include "columnar/launch_gather.h"
#endif

static vsg_status step(vsg_exec *x, const vsg_gather_ctx *c, int s, int64_t n)
{
    VSG_STEP_BODY(x, "columnar_gather", s, n, vsg_launch_gather_step(vsg_exec_gpu(x), c, s, n),
                  vsg_gather_item(c, s, i));
}

#define get(x, s, bytes, out) vsg_scratch_alloc((x), (s), (bytes), (void **)(out))

vsg_status vsg_stage_columnar_gather(vsg_exec *x, const vsg_col_view *src, int32_t n_src,
                                     const int32_t *g_src, const int64_t *g_row, int64_t n,
                                     vsg_columnar *out)
{
    return vsg_stage_columnar_gather_turned(x, src, NULL, n_src, g_src, g_row, n, out);
}

vsg_status vsg_stage_columnar_gather_turned(vsg_exec *x, const vsg_col_view *src,
                                            const int8_t *const *turn, int32_t n_src,
                                            const int32_t *g_src, const int64_t *g_row,
                                            int64_t n, vsg_columnar *out)
{
    vsg_status st;
    vsg_scratch s = {{0}, 0};
    vsg_gather_ctx c;
    vsg_col_view *views = NULL;
    int has_z = n_src > 0 && src[0].z != NULL;
    memset(&c, 0, sizeof c);
    vsg_columnar_init(out);
    for (int32_t k = 1; k < n_src; k++)
        if ((src[k].z != NULL) != has_z)
            return VSG_ERR_INVALID_ARG;
    vsg_exec_stage_begin(x, "columnar_gather");
    TRY(get(x, &s, (size_t)(n_src ? n_src : 1) * sizeof *views, &views));
    TRY(vsg_exec_upload(x, views, src, (size_t)n_src * sizeof *views));
    c.src = views;
    if (turn) {
        const int8_t **turns;
        TRY(get(x, &s, (size_t)n_src * sizeof *turns, &turns));
        TRY(vsg_exec_upload(x, (void *)turns, turn, (size_t)n_src * sizeof *turns));
        c.turn = turns;
    }
    c.n_src = n_src;
    c.g_src = g_src;
    c.g_row = g_row;
    c.n_geoms = n;
    int64_t *goff, *poff, *roff;
    /* geometries: their parts */
    TRY(get(x, &s, (size_t)(n ? n : 1) * sizeof(int64_t), &c.cnt));
    TRY(get(x, &s, (size_t)(n + 1) * sizeof(int64_t), &goff));
    TRY(step(x, &c, VSG_GATHER_GEOM, n));
    TRY(vsg_scan_total(x, c.cnt, goff, n, &c.n_parts));
    c.goff = goff;
    /* parts: their rings */
    TRY(get(x, &s, (size_t)(c.n_parts ? c.n_parts : 1) * sizeof(int64_t), &c.p_from));
    TRY(get(x, &s, (size_t)(c.n_parts ? c.n_parts : 1) * sizeof(int64_t), &c.cnt));
    TRY(get(x, &s, (size_t)(c.n_parts + 1) * sizeof(int64_t), &poff));
    TRY(step(x, &c, VSG_GATHER_PART, c.n_parts));
    TRY(vsg_scan_total(x, c.cnt, poff, c.n_parts, &c.n_rings));
    c.poff = poff;
    /* rings: their coordinates */
    TRY(get(x, &s, (size_t)(c.n_rings ? c.n_rings : 1) * sizeof(int64_t), &c.r_from));
    TRY(get(x, &s, (size_t)(c.n_rings ? c.n_rings : 1) * sizeof(int32_t), &c.r_src));
    TRY(get(x, &s, (size_t)(c.n_rings ? c.n_rings : 1) * sizeof(int64_t), &c.cnt));
    TRY(get(x, &s, (size_t)(c.n_rings + 1) * sizeof(int64_t), &roff));
    TRY(step(x, &c, VSG_GATHER_RING, c.n_rings));
    TRY(vsg_scan_total(x, c.cnt, roff, c.n_rings, &c.n_coords));
    c.roff = roff;
    /* the output, then its arrays */
    TRY(vsg_columnar_alloc(x, out, n, c.n_parts, c.n_rings, c.n_coords, has_z));
    TRY(vsg_exec_copy(x, out->geom_part, goff, (size_t)(n + 1) * sizeof(int64_t)));
    TRY(vsg_exec_copy(x, out->part_ring, poff, (size_t)(c.n_parts + 1) * sizeof(int64_t)));
    TRY(vsg_exec_copy(x, out->ring_coord, roff, (size_t)(c.n_rings + 1) * sizeof(int64_t)));
    c.type = out->type;
    c.flags = out->flags;
    c.x = out->x;
    c.y = out->y;
    c.z = out->z;
    TRY(step(x, &c, VSG_GATHER_GEOM_FILL, n));
    TRY(step(x, &c, VSG_GATHER_COORD, c.n_coords));
done:
    vsg_exec_stage_end(x, n, c.n_coords);
    vsg_scratch_free(x, &s);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    return st;
}
