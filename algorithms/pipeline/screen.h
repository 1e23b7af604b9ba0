/*
 * screen.h - the GPU pipeline's validity screen of an input layer: the
 * rows the valid_screen stage (stages/stages.h) proves valid skip GEOS's
 * IsValid in the reader (geometry/read.h); every other row is checked by
 * GEOS as before, so the invalid policy and its counts do not change.
 */
#ifndef VSG_PIPELINE_SCREEN_H
#define VSG_PIPELINE_SCREEN_H

#include "core/engine_internal.h"
#include "exec/exec.h"

/* *known_valid (malloc'd, in->count bytes, the caller frees it): 1 where
 * row i is a (Multi)Polygon GEOS's IsValid accepts, 0 where GEOS must
 * decide. *known_valid is NULL when the statement has no GPU backend, or
 * the screen failed in AUTO (noted: the reader checks every row). Fails
 * only under strict GPU mode (the pipeline's failure rule). spares_parse:
 * the reader will not parse what passes (a dissolve's members), so by
 * default rows of every size are screened, not only large ones. */
vsg_status vsg_pipeline_valid_screen(vsg_engine *e, const vsg_wkb_array *in, int spares_parse,
                                     uint8_t **known_valid);

/* 1 where a GPU stage that runs the valid_screen stage itself on its rows
 * (the rectangle clip) should: YES screens on every backend, AUTO on a
 * CUDA device once the rows add up to the screen's minimum (1 MiB of
 * WKB), NO never. */
int vsg_pipeline_screen_wanted(const vsg_engine *e, vsg_exec *x, const vsg_wkb_array *in);

/* Asks the screen to keep its decode of the layer on the backend (on), or
 * frees what it kept (off): the statement's group unions gather their
 * members from it (pipeline/screened.h). A no-op without the GPU
 * pipeline. */
void vsg_pipeline_screen_keep(vsg_engine *e, int on);

#endif
