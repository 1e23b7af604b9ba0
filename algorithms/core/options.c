/*
 * options.c - engine option defaults and the thread-count resolution.
 */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <string.h>
#include <unistd.h>

void vsg_engine_options_init(vsg_engine_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->num_threads = 0;               /* all cores */
    opts->invalid = VSG_INVALID_REPAIR;
    opts->coverage_union = 1;            /* the exact coverage union first */
    opts->repair_clusters = 1;           /* repairs joined with their neighbours */
    opts->valid_screen = 1;              /* the screen on a CUDA device          */
}

int vsg_resolve_num_threads(int requested)
{
    if (requested > 0)
        return requested > VSG_MAX_THREADS ? VSG_MAX_THREADS : requested;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;                           /* sysconf may not know: be safe */
    return n > VSG_MAX_THREADS ? VSG_MAX_THREADS : (int)n;
}

vsg_status vsg_engine_options_check(const vsg_engine_options *opts)
{
    if (opts->num_threads < 0)
        return VSG_ERR_INVALID_ARG;
    if (opts->invalid < VSG_INVALID_REPAIR || opts->invalid > VSG_INVALID_ERROR)
        return VSG_ERR_INVALID_ARG;
    return VSG_OK;
}
