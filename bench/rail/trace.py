"""The VSGPU_PROFILE stage trace (docs/profiling.md, schema version 1) as
the rail uses it: per-stage times for the breakdown, bytes copied and pool
peak for the GPU rows, and the floor those bytes put under a GPU run."""
import json


def load(path):
    """The trace as a dict, or None when it was not written or is unreadable
    (a run that failed before its last feature writes none)."""
    try:
        with open(path) as f:
            t = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(t, dict) or not isinstance(t.get("stages"), list):
        return None
    return t


def summarize(t):
    """Stages (stage, device, elapsed_s, rows, bytes, pool peak), the totals
    and the statement keys the report shows."""
    stages = []
    h2d = d2h = pool = 0
    gpu_s = 0.0
    for s in t["stages"]:
        rec = {k: s.get(k) for k in ("stage", "device", "elapsed_s", "rows_in",
                                     "rows_out", "bytes_h2d", "bytes_d2h",
                                     "pool_peak_bytes")}
        stages.append(rec)
        h2d += int(s.get("bytes_h2d") or 0)
        d2h += int(s.get("bytes_d2h") or 0)
        pool = max(pool, int(s.get("pool_peak_bytes") or 0))
        if s.get("device") == "GPU":
            gpu_s += float(s.get("elapsed_s") or 0.0)
    st = t.get("statement") or {}
    return {
        "version": t.get("version"),
        "stages": stages,
        "total_s": t.get("total_s"),
        "gpu_stage_s": gpu_s,
        "bytes_h2d": h2d,
        "bytes_d2h": d2h,
        "pool_peak_bytes": pool,
        "selected_runtime": st.get("SELECTED_RUNTIME"),
        "fallback_reason": st.get("FALLBACK_REASON"),
        "threads": st.get("THREADS"),
        "statement": st,
    }


def floor(summary, gpu):
    """Lower bounds of a GPU run from the bytes it moved: over the host link
    and over the GPU memory; None entries when the bandwidth is unknown."""
    moved = summary["bytes_h2d"] + summary["bytes_d2h"]
    link = gpu.get("link_gbps") if gpu else None
    mem = gpu.get("memory_tbps") if gpu else None
    return {
        "bytes_moved": moved,
        "link_gbps": link,
        "memory_tbps": mem,
        "link_floor_s": moved / (link * 1e9) if link else None,
        "memory_floor_s": moved / (mem * 1e12) if mem else None,
    }
