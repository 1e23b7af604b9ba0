/*
 * profile.h - internal life cycle of the profiling rail (the accessors and
 * the JSON writer are public, in vsgpu_engine.h).
 */
#ifndef VSG_CORE_PROFILE_H
#define VSG_CORE_PROFILE_H

#include "vsgpu_engine.h"

/* Returns NULL when out of memory. */
vsg_profile *vsg_profile_create(void);
void vsg_profile_destroy(vsg_profile *p);

#endif
