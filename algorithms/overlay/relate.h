/*
 * relate.h - the cheap decisions made on an (input, method) pair before
 * any overlay: disjoint, one covers the other, or a real overlap.
 *
 * Costs are kept down three ways: a covers test runs only when the
 * envelopes nest (otherwise it cannot hold); the intersects test uses the
 * prepared form of the larger geometry (its index pays off, the smaller
 * one is walked); method geometries are prepared once per worker (cache
 * in the method index), the input once per task.
 */
#ifndef VSG_OVERLAY_RELATE_H
#define VSG_OVERLAY_RELATE_H

#include <geos_c.h>

#include "core/worker.h"
#include "geometry/read.h"
#include "overlay/method_index.h"

typedef enum {
    VSG_REL_DISJOINT = 0,
    VSG_REL_INPUT_COVERED,    /* the method geometry covers the input */
    VSG_REL_METHOD_COVERED,   /* the input covers the method geometry */
    VSG_REL_OVERLAP,          /* intersecting, no cover: overlay needed */
    VSG_REL_ERROR             /* GEOS failed; message in the worker     */
} vsg_relation;

/* The input side of a pair: its read result and, made on first need, its
 * GEOS geometry (a row the validity screen proved valid may be left
 * unparsed: in->deferred) and its prepared form (free with
 * vsg_subject_release). */
typedef struct {
    vsg_read_result *in;
    const unsigned char *wkb;  /* the row's bytes, for a deferred parse */
    const GEOSPreparedGeometry *prep;
    int64_t row;               /* its row in the batch */
} vsg_subject;

/* The input's GEOS geometry, parsed here the first time a deferred row
 * needs it; NULL when GEOS cannot read it (the worker's message says
 * why). */
const GEOSGeometry *vsg_subject_geom(vsg_worker *w, vsg_subject *s);

void vsg_subject_release(vsg_worker *w, vsg_subject *s);

/* test_method_covered: also test whether the input covers the method
 * geometry (intersection wants it; clip does not). full_covers: also find
 * covers where the covered geometry touches the other's boundary (costly;
 * see relate.c); without it such pairs come back as OVERLAP. */
vsg_relation vsg_relate(vsg_worker *w, int worker, vsg_subject *s,
                        const vsg_method_index *idx, size_t j, int test_method_covered,
                        int full_covers);

/* vsg_relate, with the class the GPU pipeline gave the pair
 * (VSG_CLS_* of elements/filter/classify.h; VSG_CLS_REFINE or hint < 0: none).
 * The classes are certain (strict interior / no contact), so they answer
 * without GEOS exactly what vsg_relate would. */
vsg_relation vsg_relate_hinted(vsg_worker *w, int worker, vsg_subject *s,
                               const vsg_method_index *idx, size_t j, int hint,
                               int test_method_covered, int full_covers);

#endif
