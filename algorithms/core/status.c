/*
 * status.c - names of the vsg_status codes, for messages and logs.
 */
#include "vsgpu_engine.h"

const char *vsg_status_name(vsg_status st)
{
    switch (st) {
    case VSG_OK: return "VSG_OK";
    case VSG_ERR_INVALID_ARG: return "VSG_ERR_INVALID_ARG";
    case VSG_ERR_INTERRUPTED: return "VSG_ERR_INTERRUPTED";
    case VSG_ERR_NOMEM: return "VSG_ERR_NOMEM";
    case VSG_ERR_THREAD: return "VSG_ERR_THREAD";
    case VSG_ERR_IO: return "VSG_ERR_IO";
    case VSG_ERR_CORRUPT_WKB: return "VSG_ERR_CORRUPT_WKB";
    case VSG_ERR_INVALID_GEOMETRY: return "VSG_ERR_INVALID_GEOMETRY";
    case VSG_ERR_UNSUPPORTED: return "VSG_ERR_UNSUPPORTED";
    case VSG_ERR_GEOS: return "VSG_ERR_GEOS";
    case VSG_ERR_NO_GPU: return "VSG_ERR_NO_GPU";
    case VSG_ERR_GPU_OOM: return "VSG_ERR_GPU_OOM";
    case VSG_ERR_GPU_KERNEL: return "VSG_ERR_GPU_KERNEL";
    }
    return "VSG_ERR_UNKNOWN";
}
