/*
 * seg_args.h - the scratch of the segment-parallel rectangle clip
 * (elements/rect_clip/seg.h), one field of rc_args. Every array is
 * backend memory, sized by the orchestrator (stages/rect_clip/rect_clip.c)
 * from the counts of the input and the scan totals it reads back.
 *
 *   NG geometries, NP parts, NR rings, NC coordinates (of the input),
 *   NCH chains (scan total), NS = NP + NCH output slots
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_SEG_ARGS_H
#define VSG_ELEMENTS_RECT_CLIP_SEG_ARGS_H

#include "elements/rect_clip/poly.h"

typedef struct {
    /* per geometry (NG) */
    uint32_t *gflag;               /* RCG_FAST, RCG_SLOW                     */
    /* per part (NP) */
    uint32_t *pflag;               /* RCP_* (zeroed)                         */
    int32_t *pd;                   /* what the part gives (RC_PART_*, or
                                      RC_RING_CHAINED when it has chains)   */
    /* per ring (NR) */
    int64_t *ring_part, *ring_geom;
    uint8_t *ract;                 /* a ring of a segment-parallel row        */
    uint8_t *rrev;                 /* walked against its storage order       */
    int32_t *rcls;                 /* RC_RING_* class                        */
    uint32_t *rflag;               /* RCR_* (zeroed)                         */
    uint64_t *rmin;                /* 4 per ring: lowest x, y, first and last
                                      index of that vertex (images)          */
    int64_t *hf, *hk;              /* interior hole: 1, its coordinates      */
    int64_t *s_hf, *s_hk;          /* their scans (NR + 1)                   */
    int64_t *ring_ostart;          /* output start of a ring copied whole    */
    /* per coordinate (NC) */
    int64_t *coord_ring;
    uint8_t *cw;                   /* RC_IN / RC_ON / RC_OUT                 */
    int64_t *fs, *fe, *fk;         /* chain start / end at this segment,
                                      vertex kept in the output              */
    int64_t *s_fs, *s_fe, *s_fk;   /* their scans (NC + 1)                   */
    /* per chain (NCH) */
    int64_t n_chains;
    int64_t *ch_s;                 /* start segment (a coordinate index)     */
    int64_t *end_seg;              /* the segment of end-flag number i       */
    int64_t *ch_t;                 /* end segment (a coordinate index)       */
    uint8_t *cmix;                 /* (a cycle's label) joins several rings  */
    int64_t *any_mixed;            /* one cell: some cycle is mixed          */
    int64_t *succ;                 /* next chain along the output ring       */
    int64_t *kin;                  /* kept vertices strictly inside          */
    int32_t *ncorn;                /* corners walked after the exit          */
    uint8_t *ek;                   /* the entry point is emitted             */
    int64_t *hs, *s_hs;            /* cycle head (label == itself), scan     */
    int64_t *lab, *sfx;            /* after the rounds: cycle label, sum of
                                      weights from the chain to the ring end */
    int64_t *pj_a[2], *pj_b[2];    /* labels: minimum, jump (double buffers) */
    int64_t *pj_c[2], *pj_d[2];    /* list ranking: sum, next                */
    int pj_src;                    /* which buffer the round reads           */
    /* per chain end (2 NCH) */
    rc_end *cend;                  /* 2c: entry of chain c, 2c + 1: exit     */
    uint64_t *skey;
    int64_t *sval;                 /* sorted order of the ends               */
    /* touch check: chunks of RC_TOUCH_CHUNK coordinates, their boxes, the
     * pairs of chunks whose boxes meet (the candidates stage's join) */
    int64_t n_tchunks, n_tp;
    double *tbox;
    const int64_t *tp_a, *tp_b;
    /* holes strictly inside a part of several output rings: which ring
     * holds each (the crossing parity of a ray from its first vertex, per
     * ring, as an xor of ring labels); per ring (NR) */
    int64_t *any_multi;            /* one cell: some hole needs an owner     */
    double *rbox;                  /* the ray's box (inverted: no ray)       */
    double *pbox;                  /* per touch chunk: its chain pieces' box */
    uint64_t *hacc;                /* xor of (label + 1) over crossings      */
    int64_t *howner;               /* the owner chain (label), or -1         */
    uint64_t *hkey;                /* holes sorted by owner: keys owner + 1  */
    int64_t *hval, *hpos;          /* sorted ring ids, a ring's position     */
    int64_t *hk2, *s_hk2;          /* coordinates in sorted order, scan      */
    const int64_t *hp_a, *hp_b;    /* (ring, chunk) pairs whose boxes meet   */
    /* per output slot (NS) */
    int64_t *sc_p, *sc_r, *sc_k;   /* parts, rings, coordinates of a slot    */
    int64_t *ss_p, *ss_r, *ss_k;   /* their scans (NS + 1)                   */
} rc_seg_args;

#endif
