/*
 * stages.h - the columnar stages, each runnable on either backend of
 * exec/exec.h. A stage's per-element logic lives in elements/ and is the
 * same code on both: the host backend loops over it, the GPU backend
 * launches it from cuda/launch_<stage>.cu. All array arguments are backend
 * memory (device memory on the GPU); outputs are sized by count-then-fill
 * with one scalar read per allocation. Every stage is timed with
 * vsg_exec_stage_begin/end under its name.
 */
#ifndef VSG_STAGES_H
#define VSG_STAGES_H

#include <stdint.h>

#include "vsgpu_engine.h"
#include "columnar/columnar.h"
#include "exec/exec.h"

/* ---- bounds -------------------------------------------------------------
 * boxes[4g .. 4g+3] = xmin, ymin, xmax, ymax of geometry g. Rows with no
 * coordinates (null, empty, unsupported, corrupt) and rows flagged
 * VSG_GF_NONFINITE get the inverted box (+inf, +inf, -inf, -inf), which
 * meets nothing. */
vsg_status vsg_stage_bounds(vsg_exec *x, const vsg_col_view *v, double *boxes);

/* ---- candidates ----------------------------------------------------------
 * Every pair (i, j) whose closed boxes meet (boxes_a row i, boxes_b row j),
 * sorted by i then j, each once. The arrays are allocated on x and owned by
 * the caller (vsg_exec_free). */
typedef struct {
    int64_t n;
    int64_t *a;     /* row in boxes_a */
    int64_t *b;     /* row in boxes_b */
} vsg_pairs;

vsg_status vsg_stage_candidates(vsg_exec *x, const double *boxes_a, int64_t na,
                                const double *boxes_b, int64_t nb, vsg_pairs *out);

/* The same pairs, each once, sorted by i only (within a row, in the order
 * the grid's cells hold them): for a caller that orders them by a unique
 * key of its own (the refine's instances), or for whom any order will do
 * (the coverage union's noding check), so no sort is made for nothing.
 * The order may differ between backends; nothing may depend on it. */
vsg_status vsg_stage_candidates_unsorted(vsg_exec *x, const double *boxes_a, int64_t na,
                                         const double *boxes_b, int64_t nb, vsg_pairs *out);

/* One set of boxes joined with itself: the pairs (i, j) that meet with
 * j >= i + gap (gap >= 1), so each unordered pair once, none with itself;
 * gap 2 also leaves out every (i, i + 1), for a caller that tests a
 * ring's consecutive segments on its own. Sorted by (i, j), or as
 * vsg_stage_candidates_unsorted. */
vsg_status vsg_stage_candidates_above(vsg_exec *x, const double *boxes, int64_t n, int64_t gap,
                                      int sorted, vsg_pairs *out);

/* vsg_stage_candidates_above's pairs of one group only: group[i] ==
 * group[j] (n values, backend memory), tested where the pair is found,
 * so a caller that wants pairs within groups gets none across them. */
vsg_status vsg_stage_candidates_grouped(vsg_exec *x, const double *boxes, const int64_t *group,
                                        int64_t n, int64_t gap, int sorted, vsg_pairs *out);

/* ---- classify --------------------------------------------------------------
 * For each candidate pair (sorted by a then b, as the candidates stage gives
 * them) its VSG_CLS_* class (elements/filter/classify.h); boxes_a/boxes_b
 * are the rows' boxes from the bounds stage. Work is balanced over chunks
 * of segments: no launch item grows with the size of a geometry. Timed as
 * "classify_chunks", "candidates" (the chunk join) and "classify". */

vsg_status vsg_stage_classify(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                              const vsg_col_view *b, const double *boxes_b,
                              const vsg_pairs *pairs, uint8_t *cls);

/* What classify hands on to the overlay refine of the same two views (the
 * GPU pipeline's filter): both sides' chunk tables (elements/filter/
 * chunks.h) and their chunk pairs whose boxes meet, sorted as
 * vsg_stage_candidates sorts. x memory, owned by the caller:
 * vsg_chunks_shared_free. */
typedef struct {
    int64_t n_chunks[2];
    int64_t *ring_chunk[2];   /* n_rings + 1 of each side */
    int64_t *chunk_geom[2];
    double *chunk_box[2];
    vsg_pairs cp;
} vsg_chunks_shared;

void vsg_chunks_shared_free(vsg_exec *x, vsg_chunks_shared *sh);

/* vsg_stage_classify, its chunk tables and join kept in *keep (zeroed by
 * the caller; left empty on failure). */
vsg_status vsg_stage_classify_keep(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                                   const vsg_col_view *b, const double *boxes_b,
                                   const vsg_pairs *pairs, uint8_t *cls, vsg_chunks_shared *keep);

/* ---- rect_clip -------------------------------------------------------------
 * GEOSClipByRect semantics (docs/rect-clip.md lists every difference) for
 * each geometry of `in`; rect = xmin, ymin, xmax, ymax (finite, min <= max).
 * out (allocated on x) has in->n_geoms geometries, out geometry g being the
 * clip of input g: flag VSG_GF_EMPTY when the clip is empty, otherwise
 * Polygon/MultiPolygon for polygonal input, LineString/MultiLineString for
 * lines, Point/MultiPoint for points; valid polygonal output (no zero-width
 * bridges along the rectangle, no collapsed rings).
 * row_cpu[g] (x memory, n_geoms bytes) is set to 1 where the row must be
 * done by the CPU engine instead (unsupported, corrupt, non-finite, Z, or a
 * case the kernel cannot decide exactly), else 0. */
vsg_status vsg_stage_rect_clip(vsg_exec *x, const vsg_col_view *in, const double *boxes,
                               const double rect[4], vsg_columnar *out, uint8_t *row_cpu);

/* ---- columnar_gather ---------------------------------------------------------
 * *out (allocated on x) holds n geometries: geometry g is geometry g_row[g]
 * of source g_src[g] (g_src, g_row: backend memory; src: n_src views of
 * columnar sets on x, a host array), copied whole. Every source must have
 * Z or none (VSG_ERR_INVALID_ARG otherwise: the caller decodes instead).
 * Timed as "columnar_gather". */
vsg_status vsg_stage_columnar_gather(vsg_exec *x, const vsg_col_view *src, int32_t n_src,
                                     const int32_t *g_src, const int64_t *g_row, int64_t n,
                                     vsg_columnar *out);

/* The same, with source k's ring r copied in reverse where turn[k][r] < 0
 * (turn: a host array of n_src backend pointers, NULL ones and all). */
vsg_status vsg_stage_columnar_gather_turned(vsg_exec *x, const vsg_col_view *src,
                                            const int8_t *const *turn, int32_t n_src,
                                            const int32_t *g_src, const int64_t *g_row,
                                            int64_t n, vsg_columnar *out);

/* ---- coverage_union ----------------------------------------------------------
 * The union of each group of polygons (group_of[g] in [0, n_groups) for
 * every geometry of `in`; null and empty members contribute nothing) where
 * the group provably is a coverage: out (allocated on x) has n_groups
 * geometries, a MultiPolygon for each group with group_ok[g] = 1 (shells
 * counter-clockwise, holes clockwise, in input order). A group that is
 * not a coverage, or that the stage cannot settle exactly, is NULL with
 * group_ok[g] = 0 and why[g] its VSG_COV_BAD_* bits
 * (elements/union/coverage.h): the caller unions it another way.
 * group_ok and why are x memory of n_groups entries. */
vsg_status vsg_stage_coverage_union(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                    int64_t n_groups, vsg_columnar *out, uint8_t *group_ok,
                                    uint32_t *why);

/* Tests: 0 lets every group through the coverage union's checks, those
 * whose members' areas exceed their box too; 1 (the default) marks those
 * VSG_COV_BAD_OVERLAP before the table. */
void vsg_stage_coverage_set_area_test(int on);

/* ---- valid_screen --------------------------------------------------------------
 * A screen for GEOS's IsValid: why[g] = 0 only where geometry g is a
 * (Multi)Polygon that IsValid accepts (proved exactly: its rings simple,
 * no two sharing a point, each hole inside its own shell, no shell inside
 * another's interior); otherwise why[g] has VSG_COV_BAD_* bits
 * (other types and Z included) and GEOS must decide (null and empty
 * rows have 0: the reader settles them before any validity check). A
 * valid polygon whose rings touch is screened out too: GEOS decides it.
 * why: x memory of n_geoms entries. Timed as the coverage union's
 * stages. */
vsg_status vsg_stage_valid_screen(vsg_exec *x, const vsg_col_view *in, uint32_t *why);

/* ---- overlap_union -------------------------------------------------------------
 * The union of each group's members when they may overlap (not a
 * coverage): exact, from one arrangement per group, every segment cut
 * once at the other members' boundaries and each piece kept when no other
 * member covers it (elements/union/arrange.h). Output and group_ok / why
 * as vsg_stage_coverage_union's; a group any check rejects (a node too
 * close to call, more than 16 piece ends at a node, a depth that does not
 * add up, bad input) is left to the caller. Timed as "refine_sides",
 * "arrange_*" and the boundary's. */
vsg_status vsg_stage_overlap_union(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                   int64_t n_groups, vsg_columnar *out, uint8_t *group_ok,
                                   uint32_t *why);

/* ---- overlay_refine ------------------------------------------------------------
 * The exact intersection of each pair (a[pair_a[k]], b[pair_b[k]]) of
 * polygonal rows: its polygonal part as one MultiPolygon per pair (shells
 * counter-clockwise, holes clockwise; 0 parts and flag VSG_GF_EMPTY when
 * the polygons only touch or are disjoint), with pair_ok[k] = 1 (2 for an
 * empty result whose boundaries meet: GEOS would give a point or line
 * there, which the default type rule drops and counts). A pair the
 * stage cannot settle exactly has pair_ok[k] = 0 and why[k] its reason
 * bits (VSG_REF_BAD_* of elements/overlay/refine.h, VSG_COV_BAD_* of the
 * boundary steps): the caller runs GEOS on it. boxes_a/boxes_b are the
 * rows' boxes from the bounds stage. Pairs sorted by (a, b),
 * unique; pair_a, pair_b, pair_ok and why are x memory. Returns
 * VSG_ERR_INVALID_ARG when the counts are too large for its keys. */
vsg_status vsg_stage_overlay_refine(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                                    const vsg_col_view *b, const double *boxes_b,
                                    const int64_t *pair_a, const int64_t *pair_b, int64_t n_pairs,
                                    vsg_columnar *out, uint8_t *pair_ok, uint32_t *why);

/* vsg_stage_overlay_refine on the views classify saw, taking its chunk
 * tables and join (sh, from vsg_stage_classify_keep) instead of making
 * them again; sh NULL: the same as vsg_stage_overlay_refine. */
vsg_status vsg_stage_overlay_refine_shared(vsg_exec *x, const vsg_col_view *a,
                                           const double *boxes_a, const vsg_col_view *b,
                                           const double *boxes_b, const int64_t *pair_a,
                                           const int64_t *pair_b, int64_t n_pairs,
                                           const vsg_chunks_shared *sh, vsg_columnar *out,
                                           uint8_t *pair_ok, uint32_t *why);

/* Tests: the refine's rays and its items take their box joins (not one
 * item per chunk of the other polygon, of the pair's row) from this many
 * items on; negative: the default. */
void vsg_stage_refine_set_direct_max(int64_t items);

/* Tests: 0 builds every pair's intersection from its pieces, the pairs
 * whose answer is one of their rows whole too; 1 (the default) gathers
 * those from the input. */
void vsg_stage_refine_set_whole(int on);

#endif
