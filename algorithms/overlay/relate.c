/*
 * relate.c - see relate.h.
 */
#include "relate.h"

#include "elements/filter/classify.h"

#include "geometry/envelope.h"

#include <stdio.h>

const GEOSGeometry *vsg_subject_geom(vsg_worker *w, vsg_subject *s)
{
    if (!s->in->deferred)
        return s->in->geom;
    char msg[sizeof w->geos_msg];
    if (vsg_read_parse_deferred(w, s->wkb, s->in, msg, sizeof msg) != VSG_OK) {
        snprintf(w->geos_msg, sizeof w->geos_msg, "%s", msg);
        w->has_geos_msg = 1;
        return NULL;
    }
    return s->in->geom;
}

void vsg_subject_release(vsg_worker *w, vsg_subject *s)
{
    if (s->prep)
        GEOSPreparedGeom_destroy_r(w->ctx, s->prep);
    s->prep = NULL;
}

static const GEOSPreparedGeometry *subject_prepared(vsg_worker *w, vsg_subject *s)
{
    if (!s->prep)
        s->prep = GEOSPrepare_r(w->ctx, s->in->geom);   /* parsed by vsg_relate */
    return s->prep;
}

/* Prepared predicate when a prepared form exists, plain one otherwise
 * (out of memory is not a reason to fail). fn: 0 covers, 1 intersects. */
/* Whether a covers b. ContainsProperly first: with a prepared a it is an
 * indexed point-in-polygon walk that stops at the first boundary contact,
 * and it decides the common case (a small polygon well inside a big one).
 * Only when `full` is asked is the costly covers test run for the rest
 * (b touching a's boundary from inside, e.g. a county along its state's
 * border): clip wants it, since the alternative there is a union;
 * intersection does not, since its alternative is a single overlay,
 * cheaper than the covers test itself. */
static char covers(vsg_worker *w, const GEOSPreparedGeometry *p, const GEOSGeometry *a,
                   const GEOSGeometry *b, int full)
{
    /* Without a prepared form (out of memory), the same two tests
     * unprepared: a plain Covers where the prepared path would stop at
     * ContainsProperly would take the shortcut for other pairs and change
     * the output (found by VSGPU_FAULT=host_alloc:67 on nc x sids).
     * "T**FF*FF*" is ContainsProperly. */
    char r = p ? GEOSPreparedContainsProperly_r(w->ctx, p, b)
               : GEOSRelatePattern_r(w->ctx, a, b, "T**FF*FF*");
    if (r != 0 || !full)
        return r;
    return p ? GEOSPreparedCovers_r(w->ctx, p, b) : GEOSCovers_r(w->ctx, a, b);
}

static char intersects(vsg_worker *w, const GEOSPreparedGeometry *p, const GEOSGeometry *a,
                       const GEOSGeometry *b)
{
    return p ? GEOSPreparedIntersects_r(w->ctx, p, b) : GEOSIntersects_r(w->ctx, a, b);
}

vsg_relation vsg_relate(vsg_worker *w, int worker, vsg_subject *s,
                        const vsg_method_index *idx, size_t j, int test_method_covered,
                        int full_covers)
{
    const GEOSGeometry *g = vsg_subject_geom(w, s);
    const GEOSGeometry *m = vsg_method_geom(idx, w, j);
    if (!g || !m)
        return VSG_REL_ERROR;
    const double *gbox = s->in->box, *mbox = idx->boxes + 4 * j;
    char r;

    if (vsg_box_covers(mbox, gbox)) {
        r = covers(w, vsg_method_prepared(idx, w, worker, j), m, g, full_covers);
        if (r == 2)
            return VSG_REL_ERROR;
        if (r == 1)
            return VSG_REL_INPUT_COVERED;
    }
    if (test_method_covered && vsg_box_covers(gbox, mbox)) {
        r = covers(w, subject_prepared(w, s), g, m, full_covers);
        if (r == 2)
            return VSG_REL_ERROR;
        if (r == 1)
            return VSG_REL_METHOD_COVERED;
    }
    if (idx->npoints[j] > s->in->npoints)
        r = intersects(w, vsg_method_prepared(idx, w, worker, j), m, g);
    else
        r = intersects(w, subject_prepared(w, s), g, m);
    if (r == 2)
        return VSG_REL_ERROR;
    return r ? VSG_REL_OVERLAP : VSG_REL_DISJOINT;
}

vsg_relation vsg_relate_hinted(vsg_worker *w, int worker, vsg_subject *s,
                               const vsg_method_index *idx, size_t j, int hint,
                               int test_method_covered, int full_covers)
{
    switch (hint) {
    case VSG_CLS_DISJOINT:
        return VSG_REL_DISJOINT;
    case VSG_CLS_A_IN_B:
        return VSG_REL_INPUT_COVERED;
    case VSG_CLS_B_IN_A:
        /* the method lies in the input's interior: they overlap, and the
         * input cannot be covered by it */
        return test_method_covered ? VSG_REL_METHOD_COVERED : VSG_REL_OVERLAP;
    default:
        return vsg_relate(w, worker, s, idx, j, test_method_covered, full_covers);
    }
}
