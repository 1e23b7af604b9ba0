/*
 * columnar.h - columnar geometry (the layout of elements/col_view.h) that
 * owns its arrays, on the host or on an execution backend, and the ways in
 * and out: WKB -> columnar (untrusted bytes: every count and offset is
 * checked), columnar -> WKB (ISO, little endian), host <-> backend copies.
 *
 * Round trip: ISO little-endian WKB of the six simple types, 2D or Z,
 * comes back bit-exact. M is dropped (as the CPU engine drops it), big
 * endian and EWKB come back as ISO little endian.
 */
#ifndef VSG_COLUMNAR_H
#define VSG_COLUMNAR_H

#include <stddef.h>
#include <stdint.h>

#include "vsgpu_engine.h"
#include "elements/col_view.h"

typedef struct vsg_exec vsg_exec;

typedef struct {
    int64_t n_geoms, n_parts, n_rings, n_coords;
    uint8_t *type;
    uint8_t *flags;
    int64_t *geom_part;
    int64_t *part_ring;
    int64_t *ring_coord;
    double *x, *y;
    double *z;                    /* NULL when no geometry has Z         */
    vsg_exec *owner;              /* NULL: host malloc; else the backend
                                     whose memory holds the arrays        */
} vsg_columnar;

/* What the decoder met; every geometry is in exactly one bucket. */
typedef struct {
    int64_t decoded;              /* simple types, decoded (incl. empty)   */
    int64_t nulls;
    int64_t corrupt;              /* flag VSG_GF_CORRUPT                    */
    int64_t unsupported;          /* flag VSG_GF_UNSUPPORTED                */
    int64_t nonfinite;            /* decoded, but flag VSG_GF_NONFINITE too */
    int64_t first_corrupt;        /* index of the first corrupt one, or -1  */
    char first_corrupt_reason[160];
} vsg_columnar_report;

void vsg_columnar_init(vsg_columnar *c);

/* Host arrays sized for the counts (offsets get their +1 entries, set to
 * 0); z allocated when has_z. VSG_ERR_NOMEM on failure (c left empty). */
vsg_status vsg_columnar_alloc_host(vsg_columnar *c, int64_t n_geoms, int64_t n_parts,
                                   int64_t n_rings, int64_t n_coords, int has_z);

/* The same on a backend (vsg_exec_alloc); c->owner = x. */
vsg_status vsg_columnar_alloc(vsg_exec *x, vsg_columnar *c, int64_t n_geoms, int64_t n_parts,
                              int64_t n_rings, int64_t n_coords, int has_z);

/* Frees through the owner (host or backend); then re-inits. */
void vsg_columnar_free(vsg_columnar *c);

vsg_col_view vsg_columnar_view(const vsg_columnar *c);

/* Decodes every geometry of `in` (count pass, then fill pass) into host
 * arrays. A corrupt or unsupported geometry is flagged and reported, never
 * fatal; only VSG_ERR_NOMEM / VSG_ERR_INVALID_ARG fail the call. */
vsg_status vsg_columnar_from_wkb(const vsg_wkb_array *in, vsg_columnar *out,
                                 vsg_columnar_report *report);

/* The same, walked in `slices` slices of rows (at most 16) whatever the
 * input's size (0: as vsg_columnar_from_wkb chooses, by bytes and cores):
 * for tests, the output is the same for every count. */
vsg_status vsg_columnar_from_wkb_sliced(const vsg_wkb_array *in, vsg_columnar *out,
                                        vsg_columnar_report *report, int slices);

/* Size in bytes of geometry g as ISO little-endian WKB (0 for null,
 * corrupt and unsupported rows, which have no columnar form). */
size_t vsg_columnar_wkb_size(const vsg_columnar *c, int64_t g);

/* Writes geometry g into buf (vsg_columnar_wkb_size bytes). Host only. */
void vsg_columnar_write_wkb(const vsg_columnar *c, int64_t g, unsigned char *buf);

/* Copies a host columnar to backend x (allocating dst there) / a backend
 * columnar to the host (allocating dst with malloc). The copies are
 * asynchronous on the backend's stream; download's arrays are valid after
 * vsg_exec_sync(x). */
vsg_status vsg_columnar_upload(vsg_exec *x, const vsg_columnar *host, vsg_columnar *dst);
vsg_status vsg_columnar_download(vsg_exec *x, const vsg_columnar *dev, vsg_columnar *dst);

#endif
