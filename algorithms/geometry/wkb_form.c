/*
 * wkb_form.c - see wkb_form.h.
 */
#include "geometry/wkb_form.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

static uint32_t u32le(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The length of the plain little-endian 2D Polygon at p (at most n bytes
 * there), 0 when it is not one or has no ring or an empty shell. */
static size_t polygon_len(const unsigned char *p, size_t n)
{
    if (n < 9 || p[0] != 1 || u32le(p + 1) != 3)
        return 0;
    uint32_t rings = u32le(p + 5);
    size_t at = 9;
    if (rings == 0)
        return 0;   /* POLYGON EMPTY as a part: GEOS's form drops it */
    for (uint32_t r = 0; r < rings; r++) {
        if (n - at < 4)
            return 0;
        uint32_t pts = u32le(p + at);
        at += 4;
        if (r == 0 && pts == 0)
            return 0;
        if ((n - at) / 16 < pts)
            return 0;
        at += (size_t)pts * 16;
    }
    return at;
}

static vsg_status copy_out(const unsigned char *head, size_t head_len, const unsigned char *body,
                           size_t body_len, unsigned char **out, size_t *out_size)
{
    unsigned char *buf = vsg_malloc(head_len + body_len);
    if (!buf)
        return VSG_ERR_NOMEM;
    if (head_len)
        memcpy(buf, head, head_len);
    memcpy(buf + head_len, body, body_len);
    *out = buf;
    *out_size = head_len + body_len;
    return VSG_OK;
}

vsg_status vsg_wkb_overlay_copy(const unsigned char *wkb, size_t size, int promote_multi,
                                unsigned char **out, size_t *out_size)
{
    static const unsigned char multi_one[9] = {1, 6, 0, 0, 0, 1, 0, 0, 0};
    *out = NULL;
    *out_size = 0;
    if (!wkb || size < 9 || wkb[0] != 1)
        return VSG_OK;
    uint32_t type = u32le(wkb + 1);
    if (type == 3) {
        size_t len = polygon_len(wkb, size);
        if (!len)
            return VSG_OK;
        return promote_multi ? copy_out(multi_one, sizeof multi_one, wkb, len, out, out_size)
                             : copy_out(NULL, 0, wkb, len, out, out_size);
    }
    if (type != 6)
        return VSG_OK;
    uint32_t parts = u32le(wkb + 5);
    size_t at = 9;
    for (uint32_t k = 0; k < parts; k++) {
        size_t len = polygon_len(wkb + at, size - at);
        if (!len)
            return VSG_OK;
        at += len;
    }
    if (parts == 0)
        return VSG_OK;
    /* one part: GEOS's form is the Polygon, unless promoted back */
    if (parts == 1 && !promote_multi)
        return copy_out(NULL, 0, wkb + 9, at - 9, out, out_size);
    return copy_out(NULL, 0, wkb, at, out, out_size);
}
