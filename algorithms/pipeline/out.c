/*
 * pipeline_out.c - see pipeline_out.h.
 */
#include "pipeline/out.h"

#include <stdlib.h>
#include <string.h>

void vsg_pipeline_out_init(vsg_pipeline_out *p)
{
    memset(p, 0, sizeof *p);
    vsg_result_init(&p->settled);
}

void vsg_pipeline_out_clear(vsg_pipeline_out *p)
{
    vsg_result_clear(&p->settled);
    free(p->handed_back);
    vsg_pipeline_out_init(p);
}
