/*
 * test_gpu_runtime.c - the CUDA runtime of cuda/ (memory tiers, limit,
 * retries, copies, CUB primitives, stage timers, error messages) and the
 * GPU execution backend over it, against host computations.
 *
 * Needs a GPU. Without one (CI) it checks only that opening the device
 * fails cleanly with VSG_ERR_NO_GPU and a reason, prints "skip: <reason>"
 * and passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_test.h"
#include "exec/exec.h"
#include "core/profile.h"

#ifdef VSGPU_HAVE_CUDA
#include "vsgpu_cuda.h"
#endif

#define MiB ((size_t)1 << 20)

/* Without a usable GPU, asking for the GPU backend is a CPU reason. */
static void gpu_backend_absent_is_no_gpu(void)
{
    vsg_exec *x = (vsg_exec *)1;
    char why[256] = "";
    CHECK(vsg_exec_create_gpu(NULL, &x, why, sizeof why) == VSG_ERR_NO_GPU);
    CHECK(x == NULL);
    CHECK(why[0] != '\0');
    fprintf(stderr, "  GPU backend refused: %s\n", why);
}

#ifdef VSGPU_HAVE_CUDA

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng_next(void)   /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static vsg_gpu *open_gpu(int64_t limit, int oom_safety, int managed)
{
    vsg_gpu_settings a;
    vsg_gpu_settings_init(&a);
    a.pool_limit = limit;
    a.oom_safety = oom_safety;
    a.managed = managed;
    vsg_gpu *g = NULL;
    char msg[256] = "";
    if (vsg_gpu_open(&a, &g, msg, sizeof msg) != VSG_OK) {
        fprintf(stderr, "  vsg_gpu_open: %s\n", msg);
        return NULL;
    }
    return g;
}

/* "memory.cu:<line>: <call>": the message names the source file and line. */
static int names_file_and_line(const char *msg, const char *file)
{
    const char *p = strstr(msg, file);
    if (!p)
        return 0;
    p += strlen(file);
    if (*p++ != ':' || *p < '1' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return p[0] == ':' && p[1] == ' ';
}

static void device_out_of_range_is_no_gpu(void)
{
    vsg_gpu_settings a;
    vsg_gpu_settings_init(&a);
    a.device = 999;
    vsg_gpu *g = (vsg_gpu *)1;
    char msg[256] = "";
    CHECK(vsg_gpu_open(&a, &g, msg, sizeof msg) == VSG_ERR_NO_GPU);
    CHECK(g == NULL);
    CHECK(strstr(msg, "VSGPU_GPU_DEVICE=999") != NULL);
    CHECK(strstr(msg, "out of range") != NULL);
}

static void alloc_free_copies_and_stats(void)
{
    vsg_gpu *g = open_gpu(0, 0, 0);
    REQUIRE(g);
    CHECK(vsg_gpu_device_name(g)[0] != '\0');
    void *a = NULL, *b = NULL, *z = (void *)1;
    CHECK(vsg_gpu_alloc(g, 0, &z) == VSG_OK && z == NULL);
    REQUIRE(vsg_gpu_alloc(g, 1 * MiB, &a) == VSG_OK && a);
    REQUIRE(vsg_gpu_alloc(g, 3 * MiB, &b) == VSG_OK && b);
    vsg_gpu_stats s;
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == (int64_t)(4 * MiB));
    CHECK(s.peak_bytes == (int64_t)(4 * MiB));
    CHECK(s.allocations == 2);
    CHECK(s.failed == 0 && s.retries == 0);

    /* Round trip: h2d, d2d, memset of a part, d2h. */
    size_t n = MiB / sizeof(uint32_t);
    uint32_t *host = malloc(MiB), *back = malloc(MiB);
    REQUIRE(host && back);
    for (size_t i = 0; i < n; i++)
        host[i] = (uint32_t)rng_next();
    CHECK(vsg_gpu_h2d(g, a, host, MiB) == VSG_OK);
    CHECK(vsg_gpu_d2d(g, b, a, MiB) == VSG_OK);
    CHECK(vsg_gpu_memset(g, b, 0xab, 1024) == VSG_OK);
    CHECK(vsg_gpu_d2h(g, back, b, MiB) == VSG_OK);
    CHECK(vsg_gpu_sync(g) == VSG_OK);
    int same = 1;
    for (size_t i = 0; i < 1024 / 4; i++)
        same &= back[i] == 0xababababu;
    for (size_t i = 1024 / 4; i < n; i++)
        same &= back[i] == host[i];
    CHECK(same);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_h2d == (int64_t)MiB);
    CHECK(s.bytes_d2h == (int64_t)MiB);

    vsg_gpu_free(g, b);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == (int64_t)MiB);
    CHECK(s.peak_bytes == (int64_t)(4 * MiB));
    /* A pointer this context did not give out is refused, not freed. */
    vsg_gpu_free(g, host);
    CHECK(strstr(vsg_gpu_last_error(g), "not a live block") != NULL);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == (int64_t)MiB);
    free(host);
    free(back);
    vsg_gpu_close(g);   /* frees a: close releases what callers left */
}

static void pool_limit_refuses_with_message(void)
{
    vsg_gpu *g = open_gpu((int64_t)(8 * MiB), 0, 0);
    REQUIRE(g);
    void *a = NULL, *b = NULL;
    REQUIRE(vsg_gpu_alloc(g, 6 * MiB, &a) == VSG_OK);
    CHECK(vsg_gpu_alloc(g, 4 * MiB, &b) == VSG_ERR_GPU_OOM);
    CHECK(b == NULL);
    CHECK(strstr(vsg_gpu_last_error(g), "VSGPU_GPU_POOL_LIMIT") != NULL);
    CHECK(vsg_gpu_alloc(g, 9 * MiB, &b) == VSG_ERR_GPU_OOM);   /* above the limit alone */
    vsg_gpu_stats s;
    vsg_gpu_get_stats(g, &s);
    CHECK(s.failed == 2 && s.retries == 0);
    CHECK(s.bytes_in_use == (int64_t)(6 * MiB));
    /* Exactly up to the limit is allowed. */
    CHECK(vsg_gpu_alloc(g, 2 * MiB, &b) == VSG_OK);
    vsg_gpu_free(g, b);
    vsg_gpu_free(g, a);
    CHECK(vsg_gpu_alloc(g, 8 * MiB, &b) == VSG_OK);
    vsg_gpu_free(g, b);
    vsg_gpu_close(g);

    /* With tier B a refusal that no fence can change is not retried. */
    g = open_gpu((int64_t)(8 * MiB), 1, 0);
    REQUIRE(g);
    CHECK(vsg_gpu_alloc(g, 6 * MiB, &a) == VSG_OK);
    CHECK(vsg_gpu_alloc(g, 4 * MiB, &b) == VSG_ERR_GPU_OOM);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.failed == 1 && s.retries == 0);
    vsg_gpu_close(g);
}

/* Tier B: a request no device can serve fails after exactly the bounded
 * retries, each counted, with file and line of the failing CUDA call; the
 * context stays usable. */
static void oom_safety_retries_counted(void)
{
    vsg_gpu *g = open_gpu(0, 1, 0);
    REQUIRE(g);
    void *p = NULL;
    CHECK(vsg_gpu_alloc(g, (size_t)1 << 46, &p) == VSG_ERR_GPU_OOM);   /* 64 TiB */
    const char *msg = vsg_gpu_last_error(g);
    fprintf(stderr, "  64 TiB: %s\n", msg);
    CHECK(names_file_and_line(msg, "memory.cu"));
    CHECK(strstr(msg, "cudaMallocFromPoolAsync") != NULL);
    CHECK(strstr(msg, "cudaErrorMemoryAllocation") != NULL);
    CHECK(strstr(msg, "after 3 retries") != NULL);
    vsg_gpu_stats s;
    vsg_gpu_get_stats(g, &s);
    CHECK(s.retries == 3);
    CHECK(s.failed == 1);
    CHECK(s.bytes_in_use == 0);
    CHECK(vsg_gpu_alloc(g, MiB, &p) == VSG_OK);   /* the error did not stick */
    CHECK(vsg_gpu_memset(g, p, 0, MiB) == VSG_OK);
    CHECK(vsg_gpu_sync(g) == VSG_OK);
    vsg_gpu_free(g, p);
    vsg_gpu_close(g);

    /* Without tier B the same request fails at once. */
    g = open_gpu(0, 0, 0);
    REQUIRE(g);
    CHECK(vsg_gpu_alloc(g, (size_t)1 << 46, &p) == VSG_ERR_GPU_OOM);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.retries == 0 && s.failed == 1);
    vsg_gpu_close(g);
}

/* Tier C: managed blocks are usable by host and device; a freed managed
 * block is released at the next fence, so under a limit tier B's retry
 * (which is such a fence) makes room for the next request. */
static void managed_tier_works(void)
{
    vsg_gpu *g = open_gpu((int64_t)(16 * MiB), 1, 1);
    REQUIRE(g);
    int64_t n = (int64_t)(MiB / sizeof(int64_t));
    int64_t *in = NULL, *out = NULL;
    REQUIRE(vsg_gpu_alloc(g, (size_t)n * 8, (void **)&in) == VSG_OK);
    REQUIRE(vsg_gpu_alloc(g, (size_t)(n + 1) * 8, (void **)&out) == VSG_OK);
    CHECK(vsg_gpu_sync(g) == VSG_OK);
    for (int64_t i = 0; i < n; i++)
        in[i] = (int64_t)(rng_next() % 1000) - 500;   /* written by the host */
    CHECK(vsg_gpu_scan_i64(g, in, out, n) == VSG_OK);
    CHECK(vsg_gpu_sync(g) == VSG_OK);
    int64_t acc = 0;
    int same = 1;
    for (int64_t i = 0; i < n; i++) {
        same &= out[i] == acc;   /* read by the host */
        acc += in[i];
    }
    CHECK(same && out[n] == acc);

    vsg_gpu_stats s;
    vsg_gpu_get_stats(g, &s);
    int64_t before = s.bytes_in_use;
    void *big = NULL, *next = NULL;
    REQUIRE(vsg_gpu_alloc(g, 12 * MiB, &big) == VSG_OK);
    vsg_gpu_free(g, big);   /* deferred: still counted until a fence */
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == before + (int64_t)(12 * MiB));
    CHECK(vsg_gpu_alloc(g, 12 * MiB, &next) == VSG_OK);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.retries == 1);
    CHECK(s.bytes_in_use == before + (int64_t)(12 * MiB));
    vsg_gpu_free(g, next);
    vsg_gpu_free(g, in);
    vsg_gpu_free(g, out);
    CHECK(vsg_gpu_sync(g) == VSG_OK);
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == 0);
    vsg_gpu_close(g);
}

typedef struct { uint64_t key; int64_t idx; } kv;
static uint64_t sort_mask;

static int kv_cmp(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    uint64_t kx = x->key & sort_mask, ky = y->key & sort_mask;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Scan and stable sort on the device equal a host computation, for sizes
 * from empty to ~1e6 (several CUB tiles and blocks). */
static void scan_and_sort_equal_host(void)
{
    vsg_gpu *g = open_gpu(0, 0, 0);
    REQUIRE(g);
    const int64_t sizes[] = {0, 1, 2, 1000, 1000003};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        int64_t n = sizes[t];
        size_t nb = (size_t)(n > 0 ? n : 1) * 8;
        int64_t *in = malloc(nb), *out = malloc(nb + 8), *vals = malloc(nb);
        uint64_t *keys = malloc(nb);
        kv *ref = malloc((size_t)(n > 0 ? n : 1) * sizeof *ref);
        REQUIRE(in && out && vals && keys && ref);
        for (int64_t i = 0; i < n; i++) {
            in[i] = (int64_t)(rng_next() % 2000001) - 1000000;
            /* Many equal low bits (stability), high bits that must not count. */
            keys[i] = (rng_next() & ~(uint64_t)0xfffff) | (rng_next() % 5000);
            vals[i] = i;
            ref[i].key = keys[i];
            ref[i].idx = i;
        }
        int64_t *d_in = NULL, *d_out = NULL, *d_vals = NULL;
        uint64_t *d_keys = NULL;
        REQUIRE(vsg_gpu_alloc(g, nb, (void **)&d_in) == VSG_OK);
        REQUIRE(vsg_gpu_alloc(g, nb + 8, (void **)&d_out) == VSG_OK);
        REQUIRE(vsg_gpu_alloc(g, nb, (void **)&d_keys) == VSG_OK);
        REQUIRE(vsg_gpu_alloc(g, nb, (void **)&d_vals) == VSG_OK);
        CHECK(vsg_gpu_h2d(g, d_in, in, (size_t)n * 8) == VSG_OK);
        CHECK(vsg_gpu_h2d(g, d_keys, keys, (size_t)n * 8) == VSG_OK);
        CHECK(vsg_gpu_h2d(g, d_vals, vals, (size_t)n * 8) == VSG_OK);
        CHECK(vsg_gpu_scan_i64(g, d_in, d_out, n) == VSG_OK);
        CHECK(vsg_gpu_sort_u64_i64(g, d_keys, d_vals, n, 20) == VSG_OK);
        CHECK(vsg_gpu_d2h(g, out, d_out, (size_t)(n + 1) * 8) == VSG_OK);
        CHECK(vsg_gpu_d2h(g, keys, d_keys, (size_t)n * 8) == VSG_OK);
        CHECK(vsg_gpu_d2h(g, vals, d_vals, (size_t)n * 8) == VSG_OK);
        CHECK(vsg_gpu_sync(g) == VSG_OK);

        int64_t acc = 0;
        int scan_ok = 1;
        for (int64_t i = 0; i < n; i++) {
            scan_ok &= out[i] == acc;
            acc += in[i];
        }
        scan_ok &= out[n] == acc;
        CHECK(scan_ok);

        sort_mask = ((uint64_t)1 << 20) - 1;
        qsort(ref, (size_t)n, sizeof *ref, kv_cmp);
        int sort_ok = 1;
        for (int64_t i = 0; i < n; i++)
            sort_ok &= keys[i] == ref[i].key && vals[i] == ref[i].idx;
        CHECK(sort_ok);
        if (!scan_ok || !sort_ok)
            fprintf(stderr, "  n = %lld\n", (long long)n);

        vsg_gpu_free(g, d_in);
        vsg_gpu_free(g, d_out);
        vsg_gpu_free(g, d_keys);
        vsg_gpu_free(g, d_vals);
        free(in); free(out); free(vals); free(keys); free(ref);
    }
    vsg_gpu_stats s;
    vsg_gpu_get_stats(g, &s);
    CHECK(s.bytes_in_use == 0);   /* CUB scratch and alternates given back */
    vsg_gpu_close(g);
}

/* The GPU backend and the host backend give the same scan and sort, on all
 * 64 key bits. */
static void exec_backends_agree(void)
{
    vsg_exec *hx = NULL, *gx = NULL;
    char why[256] = "";
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    vsg_gpu_settings cfg;
    vsg_gpu_settings_init(&cfg);
    if (vsg_exec_create_gpu(&cfg, &gx, why, sizeof why) != VSG_OK) {
        fprintf(stderr, "  %s\n", why);
        vsg_exec_destroy(hx);
        REQUIRE(0);
    }
    CHECK(vsg_exec_kind_of(gx) == VSG_EXEC_GPU);
    CHECK(vsg_exec_gpu(gx) != NULL);
    CHECK(strcmp(vsg_exec_device(gx), "GPU") == 0);
    int64_t n = 300000;
    size_t nb = (size_t)n * 8;
    uint64_t *k = malloc(nb), *kg = malloc(nb);
    int64_t *v = malloc(nb), *vg = malloc(nb), *in = malloc(nb), *o = malloc(nb + 8),
            *og = malloc(nb + 8);
    REQUIRE(k && kg && v && vg && in && o && og);
    for (int64_t i = 0; i < n; i++) {
        k[i] = rng_next() >> (i % 3 ? 0 : 50);   /* full range and many duplicates */
        v[i] = (int64_t)rng_next();
        in[i] = (int64_t)(rng_next() % 100);
    }
    uint64_t *dk = NULL;
    int64_t *dv = NULL, *din = NULL, *dout = NULL, total = -1;
    REQUIRE(vsg_exec_alloc(gx, nb, (void **)&dk) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, nb, (void **)&dv) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, nb, (void **)&din) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, nb + 8, (void **)&dout) == VSG_OK);
    CHECK(vsg_exec_upload(gx, dk, k, nb) == VSG_OK);
    CHECK(vsg_exec_upload(gx, dv, v, nb) == VSG_OK);
    CHECK(vsg_exec_upload(gx, din, in, nb) == VSG_OK);
    CHECK(vsg_exec_scan_i64(gx, din, dout, n) == VSG_OK);
    CHECK(vsg_exec_sort_u64_i64(gx, dk, dv, n, 64) == VSG_OK);
    CHECK(vsg_exec_read_i64(gx, dout + n, &total) == VSG_OK);
    CHECK(vsg_exec_download(gx, kg, dk, nb) == VSG_OK);
    CHECK(vsg_exec_download(gx, vg, dv, nb) == VSG_OK);
    CHECK(vsg_exec_download(gx, og, dout, nb + 8) == VSG_OK);
    CHECK(vsg_exec_sync(gx) == VSG_OK);

    CHECK(vsg_exec_scan_i64(hx, in, o, n) == VSG_OK);
    CHECK(vsg_exec_sort_u64_i64(hx, k, v, n, 64) == VSG_OK);
    CHECK(total == o[n]);
    CHECK(memcmp(o, og, nb + 8) == 0);
    CHECK(memcmp(k, kg, nb) == 0);
    CHECK(memcmp(v, vg, nb) == 0);

    /* Overlapping copies behave as memmove on both backends. */
    CHECK(vsg_exec_copy(gx, din + 1, din, nb - 8) == VSG_OK);
    CHECK(vsg_exec_copy(gx, din, din + 2, nb - 16) == VSG_OK);
    CHECK(vsg_exec_download(gx, og, din, nb) == VSG_OK);
    CHECK(vsg_exec_sync(gx) == VSG_OK);
    memmove(in + 1, in, nb - 8);
    memmove(in, in + 2, nb - 16);
    CHECK(memcmp(in, og, nb) == 0);

    vsg_gpu_stats s;
    vsg_exec_get_stats(gx, &s);
    CHECK(s.bytes_h2d == (int64_t)(3 * nb));
    CHECK(s.bytes_d2h == (int64_t)(8 + 4 * nb + 8));
    CHECK(s.peak_bytes >= (int64_t)(4 * nb + 8));
    vsg_exec_free(gx, dk);
    vsg_exec_free(gx, dv);
    vsg_exec_free(gx, din);
    vsg_exec_free(gx, dout);
    vsg_exec_get_stats(gx, &s);
    CHECK(s.bytes_in_use == 0);
    free(k); free(kg); free(v); free(vg); free(in); free(o); free(og);
    vsg_exec_destroy(gx);
    vsg_exec_destroy(hx);
}

/* Stage timers: device-clock times after a sync, rows as given, and the
 * backend's profile records (device GPU, bytes per stage). */
static void stage_timers_positive(void)
{
    vsg_gpu_settings cfg;
    vsg_gpu_settings_init(&cfg);
    cfg.nvtx = 1;   /* NVTX ranges must not disturb anything */
    vsg_exec *x = NULL;
    char why[256] = "";
    REQUIRE(vsg_exec_create_gpu(&cfg, &x, why, sizeof why) == VSG_OK);
    int64_t n = 1 << 22;
    size_t nb = (size_t)n * 8;
    int64_t *host = calloc((size_t)n, 8), *din = NULL, *dout = NULL;
    REQUIRE(host);
    REQUIRE(vsg_exec_alloc(x, nb, (void **)&din) == VSG_OK);
    REQUIRE(vsg_exec_alloc(x, nb + 8, (void **)&dout) == VSG_OK);
    vsg_exec_stage_begin(x, "upload");
    CHECK(vsg_exec_upload(x, din, host, nb) == VSG_OK);
    vsg_exec_stage_end(x, n, n);
    vsg_exec_stage_begin(x, "scan");
    CHECK(vsg_exec_scan_i64(x, din, dout, n) == VSG_OK);
    vsg_exec_stage_end(x, n, n + 1);
    CHECK(vsg_exec_sync(x) == VSG_OK);

    vsg_gpu *g = vsg_exec_gpu(x);
    REQUIRE(g);
    CHECK(vsg_gpu_stage_count(g) == 2);
    const char *name = NULL;
    double el = -1;
    int64_t ri = -1, ro = -1;
    CHECK(vsg_gpu_stage_get(g, 1, &name, &el, &ri, &ro) == 1);
    CHECK(name && strcmp(name, "scan") == 0);
    CHECK(el > 0 && el < 10);
    CHECK(ri == n && ro == n + 1);
    CHECK(vsg_gpu_stage_get(g, 2, &name, &el, &ri, &ro) == 0);   /* out of range */

    vsg_profile *p = vsg_profile_create();
    REQUIRE(p);
    vsg_exec_flush_profile(x, p);
    CHECK(vsg_profile_count(p) == 2);
    CHECK(vsg_gpu_stage_count(g) == 0);
    for (size_t i = 0; i < vsg_profile_count(p); i++) {
        const char *stage = NULL, *device = NULL;
        double e = -1;
        int64_t rin, rout, h2d, d2h, peak;
        CHECK(vsg_profile_get(p, i, &stage, &device, &e, &rin, &rout, &h2d, &d2h, &peak));
        CHECK(device && strcmp(device, "GPU") == 0);
        CHECK(e > 0);
        CHECK(peak >= (int64_t)(2 * nb));
        if (stage && strcmp(stage, "upload") == 0)
            CHECK(h2d == (int64_t)nb && d2h == 0);
        else
            CHECK(stage && strcmp(stage, "scan") == 0 && h2d == 0);
    }
    vsg_profile_destroy(p);
    vsg_exec_free(x, din);
    vsg_exec_free(x, dout);
    free(host);
    vsg_exec_destroy(x);
}

#endif /* VSGPU_HAVE_CUDA */

int main(void)
{
#ifdef VSGPU_HAVE_CUDA
    char why[256] = "";
    if (vsg_cuda_probe(why, sizeof why) <= 0) {
        RUN(gpu_backend_absent_is_no_gpu);
        printf("skip: %s\n", why);
        return TEST_SUMMARY();
    }
    fprintf(stderr, "device: %s\n", why);
    RUN(device_out_of_range_is_no_gpu);
    RUN(alloc_free_copies_and_stats);
    RUN(pool_limit_refuses_with_message);
    RUN(oom_safety_retries_counted);
    RUN(managed_tier_works);
    RUN(scan_and_sort_equal_host);
    RUN(exec_backends_agree);
    RUN(stage_timers_positive);
    return TEST_SUMMARY();
#else
    RUN(gpu_backend_absent_is_no_gpu);
    printf("skip: this build has no CUDA engine\n");
    return TEST_SUMMARY();
#endif
}
