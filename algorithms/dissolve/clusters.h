/*
 * clusters.h - the repaired members that do not fit their neighbours
 * (fast_groups.c's set_aside: 1), each unioned by GEOS with its
 * same-group neighbours into one polygonal member that does.
 *
 * Why it fits: a member's neighbours are the members of its group whose
 * box meets its box, so every member an edge of the repair can touch is
 * in the cluster; the cluster's outline is made of the neighbours' outer
 * edges, which OverlayNG keeps vertex for vertex (it adds nodes where
 * edges cross, and those lie inside the cluster). The group's other
 * members meet it along those edges as they met the neighbours, so the
 * group is a coverage again and the group union settles it whole: no
 * probe, no merge of the member into a state's or a nation's outline.
 * Whether it did fit is the group union's exact check to say; a group it
 * refuses goes the way it went before (fast_groups.c). Two repaired
 * members that share a neighbour share a cluster. Union is associative:
 * the group's answer is the same polygon set.
 */
#ifndef VSG_DISSOLVE_CLUSTERS_H
#define VSG_DISSOLVE_CLUSTERS_H

#include "dissolve/dissolve_internal.h"

typedef struct {
    size_t n;              /* clusters, ordered by their first member      */
    int64_t *of;           /* per input member: its cluster, or -1         */
    int64_t *group;        /* per cluster: the group                       */
    unsigned char **wkb;   /* per cluster: the union as WKB (NULL: GEOS
                              could not; the group goes the old way)      */
    size_t *size;
} vsg_clusters;

/* The clusters of the members with aside[i] == 1, unioned (one pool task
 * each). VSG_OK, or a status that fails the statement (engine error set:
 * out of memory). */
vsg_status vsg_dissolve_clusters(dissolve_t *d, const unsigned char *aside, vsg_clusters *c);
void vsg_clusters_free(vsg_clusters *c);

#endif
