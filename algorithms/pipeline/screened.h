/*
 * screened.h - the validity screen's decode of a layer, kept on the
 * backend for a caller that asks (a dissolve): its group unions then
 * gather their members from it (stages/stages.h, columnar_gather) instead
 * of decoding and uploading the same rows again. A member is found by its
 * WKB's address: the screen and the union read the same borrowed bytes,
 * and a repaired member (new bytes) is not found, so it is decoded as
 * before.
 */
#ifndef VSG_PIPELINE_SCREENED_H
#define VSG_PIPELINE_SCREENED_H

#include "columnar/columnar.h"
#include "elements/col_view.h"

typedef struct vsg_screened {
    int keep;                     /* asked for (vsg_pipeline_screen_keep)  */
    int32_t n_src;
    vsg_columnar *dev;            /* n_src sets on the backend              */
    vsg_col_view *views;          /* n_src, their views (host array)       */
    /* an open-addressing table of the screened rows' WKB addresses */
    size_t cap;                   /* a power of two, or 0                  */
    const unsigned char **key;    /* cap slots, NULL: empty                */
    int32_t *src;                 /* cap: the row's set                    */
    int64_t *row;                 /* cap: its geometry in that set         */
    size_t n;                     /* rows held                             */
} vsg_screened;

/* Takes dev (moved: *dev is left empty) with the WKB addresses of its m
 * geometries, in order. VSG_ERR_NOMEM leaves s as it was (dev freed). */
vsg_status vsg_screened_add(vsg_screened *s, vsg_columnar *dev, const unsigned char *const *wkb,
                            size_t m);

/* Where the geometry read from wkb is held: 1 with *src and *row set, or 0. */
int vsg_screened_find(const vsg_screened *s, const unsigned char *wkb, int32_t *src,
                      int64_t *row);

/* Frees every set and the table (keep is left as it is). */
void vsg_screened_clear(vsg_screened *s);

#endif
