// step_timer.cu - marks on the stream for VSGPU_PROFILE_STEPS: an event
// recorded at each step of a stage (a launch, a sort, a scan, a read), so
// that the time between two consecutive marks, on the device's clock, is
// the device time of the first mark's step plus any wait for the host to
// enqueue the next one. Recording never waits; the times are read after
// the caller's sync (exec.c aggregates them by step name).
//
// Events are created on first use and kept for the context's life (a
// statement records thousands; creating them anew each time would cost
// more than the steps it times). A mark past the capacity is refused, and
// the caller counts it.
#include "gpu_context.h"

#include <new>

extern "C" int vsg_gpu_mark(vsg_gpu *g, int i)
{
    if (!g || i < 0 || i >= VSG_STEP_MARKS_MAX || vsg_gpu_bind(g) != VSG_OK)
        return 0;
    if (!g->marks) {
        g->marks = new (std::nothrow) cudaEvent_t[VSG_STEP_MARKS_MAX]();
        if (!g->marks)
            return 0;
    }
    if (!g->marks[i] && cudaEventCreate(&g->marks[i]) != cudaSuccess) {
        (void)cudaGetLastError();
        g->marks[i] = nullptr;
        return 0;
    }
    if (cudaEventRecord(g->marks[i], g->stream) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return 1;
}

extern "C" int vsg_gpu_mark_elapsed(vsg_gpu *g, int i, int j, double *seconds)
{
    *seconds = 0.0;
    if (!g || !g->marks || i < 0 || j < 0 || i >= VSG_STEP_MARKS_MAX ||
        j >= VSG_STEP_MARKS_MAX || !g->marks[i] || !g->marks[j])
        return 0;
    float ms = 0.0f;
    if (cudaEventSynchronize(g->marks[j]) != cudaSuccess ||
        cudaEventElapsedTime(&ms, g->marks[i], g->marks[j]) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    *seconds = ms / 1e3;
    return 1;
}

void vsg_gpu_marks_destroy(vsg_gpu *g)
{
    if (!g->marks)
        return;
    for (int i = 0; i < VSG_STEP_MARKS_MAX; i++)
        if (g->marks[i])
            (void)cudaEventDestroy(g->marks[i]);
    delete[] g->marks;
    g->marks = nullptr;
}
