/*
 * pipeline_out.h - what a GPU pipeline orchestrator returns for one batch:
 * the rows it settled, the rows it hands back to the CPU engine (run by
 * route/handback.c) and its own counts. An orchestrator fills this and
 * nothing of the engine's bookkeeping.
 */
#ifndef VSG_GPU_PIPELINE_OUT_H
#define VSG_GPU_PIPELINE_OUT_H

#include <stdint.h>

#include "vsgpu_engine.h"

/* What a pipeline gives back for one batch. */
typedef struct {
    vsg_result settled;    /* results of the rows the pipeline settled, in
                              row order (input_index: the batch row)       */
    uint8_t *handed_back;  /* one flag per batch row: the CPU engine runs it */
    int64_t n_handed_back;
    vsg_counts counts;     /* the pipeline's counts for the rows it settled */
    char why[256];         /* why rows were handed back ("" when none)     */
    const char *failed_step; /* set with a failing status: the GPU step that
                              failed (the failure rule applies); NULL for a
                              failure that is not the GPU's (host memory)  */
} vsg_pipeline_out;

void vsg_pipeline_out_init(vsg_pipeline_out *p);
void vsg_pipeline_out_clear(vsg_pipeline_out *p);

#endif
