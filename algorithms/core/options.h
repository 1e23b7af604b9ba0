/*
 * options.h - internal helpers around vsg_engine_options.
 */
#ifndef VSG_CORE_OPTIONS_H
#define VSG_CORE_OPTIONS_H

#include "vsgpu_engine.h"

/* An upper bound on workers: far above any host we target, it only keeps a
 * typo (NUM_THREADS=100000) from creating a thread storm. */
#define VSG_MAX_THREADS 256

/* requested > 0: that many (capped); 0: the online cores (at least 1). */
int vsg_resolve_num_threads(int requested);

/* VSG_ERR_INVALID_ARG when a field is out of range, VSG_OK otherwise. */
vsg_status vsg_engine_options_check(const vsg_engine_options *opts);

#endif
