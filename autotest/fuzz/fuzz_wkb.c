/*
 * fuzz_wkb.c - the WKB walker of the CPU engine (algorithms/geometry/
 * wkb_scan.c) on arbitrary bytes: vsg_wkb_scan, then for a geometry it
 * accepts the two normalising copies (vsg_wkb_close_rings, and
 * vsg_wkb_normalize dropping M), each scanned again. Checked: the verdict
 * and the info fields keep their promises (wkb_scan.h), and a copy is
 * itself well-formed WKB of exactly its length, with no unclosed ring and,
 * when M was dropped, no M.
 */
#include <string.h>

#include "fuzz_check.h"
#include "geometry/wkb_scan.h"

static void check_info(const vsg_wkb_info *in, size_t size)
{
    FUZZ_CHECK(in->verdict >= VSG_WKB_OK && in->verdict <= VSG_WKB_UNSUPPORTED);
    FUZZ_CHECK(memchr(in->message, '\0', sizeof in->message) != NULL);
    if (in->verdict == VSG_WKB_OK || in->verdict == VSG_WKB_NONFINITE) {
        FUZZ_CHECK(in->consumed >= 5 && in->consumed <= size);
        FUZZ_CHECK(in->type >= 1 && in->type <= 7);
        FUZZ_CHECK(in->n_points >= 0 && in->n_rings >= 0);
        FUZZ_CHECK(in->n_unclosed_rings >= 0 && in->n_unclosed_rings <= in->n_rings);
        FUZZ_CHECK(in->dimension >= -1 && in->dimension <= 2);
        /* 16 bytes at least per coordinate read */
        FUZZ_CHECK((uint64_t)in->n_points <= size / 16);
    }
    if (in->verdict == VSG_WKB_OK && !in->is_empty)
        FUZZ_CHECK(in->bounds[0] <= in->bounds[2] && in->bounds[1] <= in->bounds[3]);
}

static void check_copy(const unsigned char *wkb, size_t size,
                       const vsg_wkb_info *orig, int drop_m)
{
    unsigned char *out = NULL;
    size_t out_size = 0;
    vsg_wkb_info in;
    vsg_status st = drop_m ? vsg_wkb_normalize(wkb, size, 1, &out, &out_size)
                           : vsg_wkb_close_rings(wkb, size, &out, &out_size);

    if (st == VSG_ERR_NOMEM)
        return;
    FUZZ_CHECK(st == VSG_OK && out != NULL);
    vsg_wkb_scan(out, out_size, &in);
    check_info(&in, out_size);
    FUZZ_CHECK(in.verdict == VSG_WKB_OK || in.verdict == VSG_WKB_NONFINITE);
    FUZZ_CHECK(in.consumed == out_size);
    FUZZ_CHECK(in.type == orig->type && in.n_rings == orig->n_rings);
    if (drop_m)
        FUZZ_CHECK(!in.has_m && !in.any_m);
    else
        FUZZ_CHECK(in.verdict == orig->verdict && in.any_m == orig->any_m);
    if (orig->verdict == VSG_WKB_OK) {
        /* dropping M cannot make a finite geometry non-finite, and closing
         * adds one (existing) point per unclosed ring */
        FUZZ_CHECK(in.verdict == VSG_WKB_OK);
        FUZZ_CHECK(in.n_unclosed_rings == 0);
        FUZZ_CHECK(in.n_points == orig->n_points + orig->n_unclosed_rings);
        FUZZ_CHECK(in.is_empty == orig->is_empty && in.dimension == orig->dimension);
        if (!in.is_empty)
            FUZZ_CHECK(memcmp(in.bounds, orig->bounds, sizeof in.bounds) == 0);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vsg_wkb_info info;

    vsg_wkb_scan(size ? data : NULL, size, &info);
    check_info(&info, size);
    if (info.verdict == VSG_WKB_OK || info.verdict == VSG_WKB_NONFINITE) {
        check_copy(data, size, &info, 0);
        check_copy(data, size, &info, 1);
    } else {
        unsigned char *out = (unsigned char *)1;
        size_t out_size = 1;
        FUZZ_CHECK(vsg_wkb_normalize(size ? data : NULL, size, 1, &out,
                                     &out_size) == VSG_ERR_CORRUPT_WKB);
        FUZZ_CHECK(out == NULL && out_size == 0);
    }
    return 0;
}
