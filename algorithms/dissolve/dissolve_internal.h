/*
 * dissolve_internal.h - the state the dissolve stages share (see
 * dissolve.c for the algorithm).
 */
#ifndef VSG_DISSOLVE_INTERNAL_H
#define VSG_DISSOLVE_INTERNAL_H

#include <geos_c.h>

#include "overlay/batch.h"

typedef struct {
    int non_null;          /* has a member that is not null or dropped   */
    size_t n_chunks;
    size_t first_chunk;
    int done;              /* whole-group coverage union accepted        */
    int steps;             /* union steps made                           */
    int coverage_ok;       /* every step so far was an accepted coverage */
    GEOSGeometry **partials;
    size_t n_partials;
    unsigned char *wkb;
    size_t size;
} group_t;

typedef struct {
    int64_t group;
    size_t first, count;   /* into members[] */
} chunk_t;

/* One union task of a level: parts in, one partial out. */
typedef struct {
    int64_t group;
    GEOSGeometry **parts;  /* borrowed slots, taken by the task */
    size_t n_parts;
    GEOSGeometry *result;
    int used_coverage;
} step_t;

typedef struct {
    vsg_batch b;
    const int64_t *group_of;
    int64_t n_groups;
    int dim;
    group_t *groups;
    int64_t *members;
    chunk_t *chunks;
    size_t n_chunks;
    step_t *all_steps;     /* storage for every level's steps */
    step_t *steps;         /* the level running now           */
    size_t n_steps;
} dissolve_t;

/* Stage "coverage_union": whole-group coverage unions (coverage.c). */
vsg_status vsg_dissolve_coverage_phase(dissolve_t *d);

/* Stages "union" and "merge": chunk unions, then pairwise merges until
 * each group has one result (levels.c). */
vsg_status vsg_dissolve_union_chunks(dissolve_t *d);
vsg_status vsg_dissolve_merge_levels(dissolve_t *d);

#endif
