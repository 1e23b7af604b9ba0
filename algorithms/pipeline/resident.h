/*
 * resident.h - what the pipeline keeps on a backend between batches, keyed
 * by what it is: a layer (by the serial of its method index) with what the
 * stages derive from it once (its boxes). A small cache per backend, least
 * recently used first out, so that several method layers, several devices
 * (one cache each) or spatial tiles (one key each) need no new globals.
 */
#ifndef VSG_PIPELINE_RESIDENT_H
#define VSG_PIPELINE_RESIDENT_H

#include <stdint.h>

#include "columnar/columnar.h"
#include "exec/exec.h"

#define VSG_RESIDENT_SLOTS 4

typedef struct {
    uint64_t key;             /* 0: a free slot                               */
    uint64_t last_use;
    vsg_columnar dev;         /* the layer, on the backend                    */
    double *boxes;            /* its rows' boxes (the bounds stage), backend  */
} vsg_resident;

typedef struct {
    vsg_resident slot[VSG_RESIDENT_SLOTS];
    uint64_t clock;
} vsg_resident_cache;

void vsg_resident_init(vsg_resident_cache *c);

/* The layer `key` on x: the cached one, or col uploaded and bounded (the
 * "method_h2d" and "bounds" stages) into the least recently used slot.
 * NULL with *st set when it cannot be made (nothing is left half made). */
const vsg_resident *vsg_resident_get(vsg_resident_cache *c, vsg_exec *x, uint64_t key,
                                     const vsg_columnar *col, vsg_status *st);

/* Frees every slot's backend memory (x: the backend they live on). */
void vsg_resident_clear(vsg_resident_cache *c, vsg_exec *x);

#endif
