/*
 * screened.h - the validity screen's decode of a layer, kept on the
 * backend for a caller that asks (a dissolve): its group unions then
 * gather their members from it (stages/stages.h, columnar_gather) instead
 * of decoding and uploading the same rows again. A member is found by its
 * row in the layer (vsg_group_union_out.member_row); a repaired member
 * (new bytes) has none, and is decoded as before.
 */
#ifndef VSG_PIPELINE_SCREENED_H
#define VSG_PIPELINE_SCREENED_H

#include "columnar/columnar.h"
#include "elements/col_view.h"
#include "exec/exec.h"

typedef struct vsg_screened {
    int keep;                     /* asked for (vsg_pipeline_screen_keep)  */
    int32_t n_src;
    vsg_columnar *dev;            /* n_src sets on the backend              */
    const void *layer;            /* the layer's WKB array, as its identity */
    size_t n_rows;                /* rows of the layer                      */
    int32_t *row_src;             /* n_rows: the set holding the row, or -1 */
    int64_t *row_at;              /* n_rows: its geometry in that set       */
} vsg_screened;

/* Takes dev (moved: *dev is left empty), whose geometry k is row rows[k]
 * of a layer of n_rows rows (layer: its WKB array, kept as the layer's
 * identity). VSG_ERR_NOMEM leaves s as it was (dev freed). */
vsg_status vsg_screened_add(vsg_screened *s, vsg_columnar *dev, const size_t *rows, size_t m,
                            size_t n_rows, const void *layer);

/* Where row `row` of the layer is held: 1 with *src and *at set, or 0. */
int vsg_screened_find(const vsg_screened *s, int64_t row, int32_t *src, int64_t *at);

/* members' columnar set on x (*dev), gathered from s where it holds their
 * rows (rows[i]: member i's row in the layer, or -1), the rest decoded
 * here and copied up; *done 0 where there is nothing to reuse, or Z (the
 * gather leaves Z to the decoder): the caller then decodes them all. */
vsg_status vsg_screened_gather(vsg_exec *x, const vsg_screened *s,
                               const vsg_wkb_array *members, const int64_t *rows,
                               vsg_columnar *dev, int *done);

/* Frees every set and the map (keep is left as it is). */
void vsg_screened_clear(vsg_screened *s);

#endif
