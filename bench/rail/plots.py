"""PNG plots of a rail run (imported only when matplotlib is there):

  scaling-<workload>.png  wall time and throughput against input vertices,
                          one line per engine, log scales; a timeout is an
                          x at its limit (a bound, not a time); the copy
                          floor (engine "copy") dashed
  throughput.png          every workload and scale in one view: throughput
                          against input vertices, colour = engine, marker = op
  stages-<scale>.png      the VSGPU rows' stage breakdown (stacked bars), with
                          the part of the wall time outside the trace
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

_MARKERS = {"intersection": "o", "clip": "s", "clip_rect": "D", "dissolve": "^"}


def _colors(res):
    cyc = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {k: cyc[i % len(cyc)] for i, k in enumerate(res["settings"]["engines"])}


def _verts(res, scale, name):
    for w in res["workloads"]:
        if w["scale"] == scale and w["name"] == name:
            return w["vertices_total"]
    return None


def _scaling(res, name, path, colors):
    fig, (ax_t, ax_v) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key in res["settings"]["engines"]:
        pts, cut = [], []
        label = None
        for r in res["runs"]:
            if r["workload"] != name or r["engine"] != key:
                continue
            label = r["label"]
            v = _verts(res, r["scale"], name)
            if not v:
                continue
            if r["status"] == "ok":
                pts.append((v, r["median_s"], r["min_s"]))
            elif r["status"] in ("timeout", "cut") and r["runs"]:
                cut.append((v, r["runs"][-1]["limit_s"]))
        if not pts and not cut:
            continue
        pts.sort()
        c = colors[key]
        if pts:
            xs = [p[0] for p in pts]
            style = "--o" if key == "copy" else "-o"
            ax_t.plot(xs, [p[1] for p in pts], style, color=c, label=label)
            ax_t.vlines(xs, [p[2] for p in pts], [p[1] for p in pts], color=c, alpha=0.5)
            ax_v.plot(xs, [p[0] / p[1] / 1e6 for p in pts], style, color=c, label=label)
        if cut:
            ax_t.plot([p[0] for p in cut], [p[1] for p in cut], "x", color=c, markersize=10,
                      label=None if pts else label + " (timeout)")
    for ax, yl in ((ax_t, "wall s (median; bar down to min)"),
                   (ax_v, "M input vertices / s")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("input + method vertices")
        ax.set_ylabel(yl)
        ax.grid(True, which="both", alpha=0.3)
    ax_t.set_title("%s: time (x = timeout limit)" % name)
    ax_v.set_title("%s: throughput" % name)
    h, lab = ax_t.get_legend_handles_labels()
    if h:
        ax_v.legend(h, lab, fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _overview(res, path, colors):
    fig, ax = plt.subplots(figsize=(9, 5.5))
    seen = []
    for r in res["runs"]:
        if r["status"] != "ok" or not r["throughput_vps"]:
            continue
        v = _verts(res, r["scale"], r["workload"])
        if r["engine"] not in seen:
            seen.append(r["engine"])
        c = colors[r["engine"]]
        wrong = r["check"]["status"] == "mismatch"
        ax.scatter([v], [r["throughput_vps"] / 1e6], edgecolors=c,
                   marker=_MARKERS.get(r["op"], "o"), facecolors="none" if wrong else c)
    for e in seen:
        ax.scatter([], [], color=colors[e], marker="o", label=e)
    for op, mk in _MARKERS.items():
        ax.scatter([], [], color="gray", marker=mk, label=op)
    ax.scatter([], [], color="gray", facecolors="none", label="hollow: answer differs")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("input + method vertices")
    ax.set_ylabel("M input vertices / s (median run)")
    ax.set_title("Throughput, every workload and scale")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _stages(res, scale, path):
    rows = [r for r in res["runs"] if r["scale"] == scale and r["status"] == "ok" and r.get("trace")]
    if not rows:
        return False
    names = []
    for r in rows:
        for s in r["trace"]["stages"]:
            n = s["stage"] + ("@GPU" if s["device"] == "GPU" else "")
            if n not in names:
                names.append(n)
    names.append("outside trace")
    cmap = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(rows) + 1.8))
    labels = []
    for i, r in enumerate(rows):
        labels.append("%s / %s" % (r["workload"], r["label"]))
        left = 0.0
        vals = {}
        for s in r["trace"]["stages"]:
            n = s["stage"] + ("@GPU" if s["device"] == "GPU" else "")
            vals[n] = vals.get(n, 0.0) + (s["elapsed_s"] or 0.0)
        vals["outside trace"] = max(r["median_s"] - (r["trace"]["total_s"] or 0.0), 0.0)
        for j, n in enumerate(names):
            v = vals.get(n, 0.0)
            if v > 0:
                ax.barh(i, v, left=left, color=cmap(j % 20),
                        label=n if n not in ax.get_legend_handles_labels()[1] else None,
                        hatch="//" if n.endswith("@GPU") else None)
                left += v
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds (median run)")
    ax.set_title("Stage breakdown, scale %s (hatched: GPU stages)" % scale)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_all(res, out_dir):
    """Write every plot; returns their paths."""
    os.makedirs(out_dir, exist_ok=True)
    colors = _colors(res)
    paths = []
    names = []
    for w in res["workloads"]:
        if w["name"] not in names:
            names.append(w["name"])
    for n in names:
        p = os.path.join(out_dir, "scaling-%s.png" % n)
        _scaling(res, n, p, colors)
        paths.append(p)
    p = os.path.join(out_dir, "throughput.png")
    _overview(res, p, colors)
    paths.append(p)
    scales = []
    for w in res["workloads"]:
        if w["scale"] not in scales:
            scales.append(w["scale"])
    for s in scales:
        p = os.path.join(out_dir, "stages-%s.png" % s)
        if _stages(res, s, p):
            paths.append(p)
    return paths
