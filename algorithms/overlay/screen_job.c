/*
 * screen_job.c - see screen_job.h.
 */
#include "overlay/screen_job.h"

#include <string.h>

static void *run(void *arg)
{
    vsg_screen_job *j = arg;
    j->st = j->e->valid_screen(j->e, j->in, &j->known_valid);
    return NULL;
}

int vsg_screen_start(vsg_screen_job *j, vsg_engine *e, const vsg_wkb_array *in)
{
    memset(j, 0, sizeof *j);
    if (!e->valid_screen || !e->opts.gpu.enabled || e->opts.valid_screen == 0 || !in->count)
        return 0;
    j->e = e;
    j->in = in;
    j->pending = 1;
    j->running = pthread_create(&j->th, NULL, run, j) == 0;
    return 1;
}

vsg_status vsg_screen_join(vsg_screen_job *j, uint8_t **known_valid)
{
    *known_valid = NULL;
    if (!j->pending)
        return VSG_OK;
    if (j->running)
        pthread_join(j->th, NULL);
    else
        run(j);   /* no thread: the screen runs here, after the parsing */
    j->pending = 0;
    *known_valid = j->known_valid;
    j->known_valid = NULL;
    return j->st;
}
