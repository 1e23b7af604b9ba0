/*
 * dissolve_internal.h - the state the dissolve stages share (see
 * dissolve.c for the algorithm).
 */
#ifndef VSG_DISSOLVE_INTERNAL_H
#define VSG_DISSOLVE_INTERNAL_H

#include <geos_c.h>
#include <stdatomic.h>

#include "dissolve/group_union.h"
#include "overlay/batch.h"

typedef struct {
    int non_null;          /* has a member that is not null or dropped   */
    size_t n_chunks;
    size_t first_chunk;
    int done;              /* whole-group coverage union accepted        */
    int fast;              /* settled by the group union handed in: wkb
                              is the result (fast_groups.c)             */
    int fast_tried;        /* offered to it and not settled: no coverage
                              (GEOS's whole-group attempt is skipped)   */
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
    GEOSGeometry *preset;  /* the chunk's union, made by the group union
                              handed in: the step only passes it on     */
    int used_coverage;
    int last;              /* its result is the group's union (progress) */
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
    GEOSGeometry **chunk_partial; /* per chunk, NULL or its union made by
                                     the group union (fast_groups.c)     */
    unsigned char *chunk_consumed; /* per chunk: its union is in another
                                      chunk's partial (fast_groups.c)    */
    step_t *all_steps;     /* storage for every level's steps */
    step_t *steps;         /* the level running now           */
    size_t n_steps;
    /* progress (progress.c): groups whose union is finished, counted by
     * the task that finishes each; read by the calling thread */
    _Atomic int64_t groups_done;
    int64_t groups_reported;  /* the last count handed to the callback */
    atomic_int stop;          /* the callback asked to stop           */
} dissolve_t;

/* ---- progress (progress.c) ------------------------------------------- */

/* A group's union is finished (any thread). */
void vsg_dissolve_group_finished(dissolve_t *d);
/* Hands the count to the engine's progress callback when it moved and
 * wid is the calling thread's worker (0); a 0 from the callback sets
 * stop. Cheap when no callback is set. */
void vsg_dissolve_progress(dissolve_t *d, int wid);
/* Whether the callback asked to stop: tasks then return at once. */
int vsg_dissolve_stopped(dissolve_t *d);
/* Between stages, on the calling thread: reports, and turns a stop
 * request into VSG_ERR_INTERRUPTED (the engine's last error). all: every
 * group is finished (the union stages are over). */
vsg_status vsg_dissolve_checkpoint(dissolve_t *d, int all);

/* The neighbours of marked rows: on entry want[i] names the rows asked
 * about; on return want[i] = 1 only for those whose box meets the box of
 * a row j with marked[j] in the same group (one STR tree over the marked
 * rows' boxes; clusters.c). VSG_OK, or VSG_ERR_NOMEM for the caller to
 * report. */
vsg_status vsg_dissolve_near_marked(const dissolve_t *d, const unsigned char *marked,
                                    unsigned char *want);

/* The group union handed in (NULL: none) on the polygon groups; the
 * groups it settles are done (fast_groups.c). */
vsg_status vsg_dissolve_fast_groups(dissolve_t *d, vsg_group_union_fn fast);

/* Stage "coverage_union": whole-group coverage unions (coverage.c). */
vsg_status vsg_dissolve_coverage_phase(dissolve_t *d);

/* Stages "union" and "merge": chunk unions, then pairwise merges until
 * each group has one result (levels.c). */
vsg_status vsg_dissolve_union_chunks(dissolve_t *d);
vsg_status vsg_dissolve_merge_levels(dissolve_t *d);

#endif
