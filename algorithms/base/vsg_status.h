/*
 * vsg_status.h - the status codes of every C layer below the driver: the
 * engine, the execution backends and cuda/. Part of the bottom target
 * (algorithms/base/ and algorithms/elements/) that every other part may
 * include and that includes nothing of theirs.
 */
#ifndef VSG_BASE_STATUS_H
#define VSG_BASE_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes, grouped by category ------------------------------- */
typedef enum {
    VSG_OK = 0,
    /* caller errors */
    VSG_ERR_INVALID_ARG = 100,
    VSG_ERR_INTERRUPTED = 101,        /* the progress callback asked to
                                         stop (vsg_engine_set_progress)    */
    /* resource errors */
    VSG_ERR_NOMEM = 200,
    VSG_ERR_THREAD = 201,
    VSG_ERR_IO = 202,                 /* a file could not be written; errno
                                         says why                           */
    /* input errors */
    VSG_ERR_CORRUPT_WKB = 300,        /* malformed WKB (policy ERROR, or
                                         nothing could be read)            */
    VSG_ERR_INVALID_GEOMETRY = 301,   /* VSGPU_INVALID=ERROR and an invalid
                                         or non-finite geometry was seen    */
    VSG_ERR_UNSUPPORTED = 302,
    /* computation errors */
    VSG_ERR_GEOS = 400,               /* a GEOS operation failed and
                                         SKIP_FAILURES is off               */
    /* device errors (the GPU pipeline) */
    VSG_ERR_NO_GPU = 500,
    VSG_ERR_GPU_OOM = 501,
    VSG_ERR_GPU_KERNEL = 502
} vsg_status;

const char *vsg_status_name(vsg_status st);

#ifdef __cplusplus
}
#endif
#endif
