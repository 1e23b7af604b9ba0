/*
 * test_pipeline_resident.c - the pipeline's resident cache
 * (pipeline/resident.h) on the host backend: a layer is uploaded and
 * bounded once per key, found again without a copy, and the least recently
 * used slot is the one refilled when the cache is full.
 */
#include <string.h>

#include "pipeline/resident.h"
#include "vsg_test.h"

/* A layer of one unit square at (k, k), as little-endian WKB. */
static void square_layer(int k, vsg_columnar *col)
{
    unsigned char wkb[93];
    uint32_t t = 3, nr = 1, np = 5;
    double xy[10] = {k, k, k + 1, k, k + 1, k + 1, k, k + 1, k, k};
    wkb[0] = 1;
    memcpy(wkb + 1, &t, 4);
    memcpy(wkb + 5, &nr, 4);
    memcpy(wkb + 9, &np, 4);
    memcpy(wkb + 13, xy, sizeof xy);
    const unsigned char *ptrs[1] = {wkb};
    size_t sizes[1] = {sizeof wkb};
    vsg_wkb_array arr;
    memset(&arr, 0, sizeof arr);
    arr.count = 1;
    arr.wkb = ptrs;
    arr.size = sizes;
    vsg_columnar_init(col);
    vsg_columnar_report rep;
    vsg_columnar_from_wkb(&arr, col, &rep);
}

static void cache_finds_uploads_and_evicts(void)
{
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    vsg_resident_cache c;
    vsg_resident_init(&c);
    vsg_columnar layers[VSG_RESIDENT_SLOTS + 1];
    for (int k = 0; k <= VSG_RESIDENT_SLOTS; k++)
        square_layer(k, &layers[k]);
    vsg_status st;
    const vsg_resident *first = vsg_resident_get(&c, x, 1, &layers[0], &st);
    REQUIRE(first != NULL && st == VSG_OK);
    CHECK(first->key == 1 && first->dev.n_geoms == 1);
    CHECK(first->boxes[0] == 0 && first->boxes[3] == 1);   /* bounded */
    /* found again: the same slot, no new upload */
    CHECK(vsg_resident_get(&c, x, 1, &layers[0], &st) == first);
    /* fill the other slots, then one more: the least recently used goes */
    for (int k = 1; k < VSG_RESIDENT_SLOTS; k++)
        CHECK(vsg_resident_get(&c, x, (uint64_t)k + 1, &layers[k], &st) != NULL);
    CHECK(vsg_resident_get(&c, x, 1, &layers[0], &st) == first);   /* 1 is now newest */
    const vsg_resident *last =
        vsg_resident_get(&c, x, VSG_RESIDENT_SLOTS + 1, &layers[VSG_RESIDENT_SLOTS], &st);
    REQUIRE(last != NULL);
    CHECK(last->boxes[0] == VSG_RESIDENT_SLOTS);
    int have[VSG_RESIDENT_SLOTS + 2] = {0};
    for (int i = 0; i < VSG_RESIDENT_SLOTS; i++)
        have[c.slot[i].key]++;
    CHECK(have[1] == 1 && have[2] == 0);   /* key 2 was the least recently used */
    CHECK(have[VSG_RESIDENT_SLOTS + 1] == 1);
    vsg_resident_clear(&c, x);
    for (int i = 0; i < VSG_RESIDENT_SLOTS; i++)
        CHECK(c.slot[i].key == 0 && c.slot[i].boxes == NULL);
    for (int k = 0; k <= VSG_RESIDENT_SLOTS; k++)
        vsg_columnar_free(&layers[k]);
    vsg_exec_destroy(x);
}

int main(void)
{
    RUN(cache_finds_uploads_and_evicts);
    return TEST_SUMMARY();
}
