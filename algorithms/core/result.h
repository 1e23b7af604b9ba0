/*
 * result.h - internal growth of vsg_result (the public part is in
 * vsgpu_engine.h).
 */
#ifndef VSG_CORE_RESULT_H
#define VSG_CORE_RESULT_H

#include "vsgpu_engine.h"

/* Makes room for at least `capacity` rows. On failure returns
 * VSG_ERR_NOMEM and leaves r unchanged. */
vsg_status vsg_result_reserve(vsg_result *r, size_t capacity);

/* Appends one row and takes ownership of wkb (malloc'ed; NULL allowed for
 * the all-null dissolve group). On failure returns VSG_ERR_NOMEM, r is
 * unchanged and wkb is still the caller's. */
vsg_status vsg_result_push(vsg_result *r, int64_t input_index,
                           int64_t method_index, unsigned char *wkb,
                           size_t size);

#endif
