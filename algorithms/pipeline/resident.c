/*
 * resident.c - see resident.h.
 */
#include "pipeline/resident.h"

#include <string.h>

#include "stages/stages.h"

void vsg_resident_init(vsg_resident_cache *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < VSG_RESIDENT_SLOTS; i++)
        vsg_columnar_init(&c->slot[i].dev);
}

/* Whether r is a better slot to (re)fill than v: a free one first, then
 * the least recently used. */
static int better_victim(const vsg_resident *r, const vsg_resident *v)
{
    if (v->key == 0)
        return 0;
    if (r->key == 0)
        return 1;
    return r->last_use < v->last_use;
}

static void slot_free(vsg_resident *r, vsg_exec *x)
{
    vsg_columnar_free(&r->dev);
    vsg_exec_free(x, r->boxes);
    r->boxes = NULL;
    r->key = 0;
}

const vsg_resident *vsg_resident_get(vsg_resident_cache *c, vsg_exec *x, uint64_t key,
                                     const vsg_columnar *col, vsg_status *st)
{
    *st = VSG_OK;
    vsg_resident *victim = &c->slot[0];
    for (int i = 0; i < VSG_RESIDENT_SLOTS; i++) {
        vsg_resident *r = &c->slot[i];
        if (key != 0 && r->key == key) {
            r->last_use = ++c->clock;
            return r;
        }
        if (better_victim(r, victim))
            victim = r;
    }
    slot_free(victim, x);
    vsg_exec_stage_begin(x, "method_h2d");
    *st = vsg_columnar_upload(x, col, &victim->dev);
    vsg_exec_stage_end(x, col->n_geoms, col->n_coords);
    if (*st == VSG_OK)
        *st = vsg_exec_alloc(x, (size_t)col->n_geoms * 4 * sizeof(double),
                             (void **)&victim->boxes);
    if (*st == VSG_OK) {
        vsg_col_view v = vsg_columnar_view(&victim->dev);
        *st = vsg_stage_bounds(x, &v, victim->boxes);
    }
    if (*st != VSG_OK) {
        slot_free(victim, x);
        return NULL;
    }
    victim->key = key;
    victim->last_use = ++c->clock;
    return victim;
}

void vsg_resident_clear(vsg_resident_cache *c, vsg_exec *x)
{
    for (int i = 0; i < VSG_RESIDENT_SLOTS; i++)
        slot_free(&c->slot[i], x);
}
