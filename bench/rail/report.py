"""The markdown report of a rail run (rail.md): the machine, one table per
scale with every engine on every workload, the GPU data-movement floor, the
stage breakdown of the VSGPU rows, the workloads and the exact commands.

A row that did not produce a time says why in the time column ("timeout >
120 s", "n/a: no GPU kernel ..."); a row whose answer differs from the
reference says how in the check column ("MISMATCH: area -0.3%"), and gets
no speed-up figure: no ratio is given against a wrong answer.

The copy row of a workload (engine "copy": a plain ogr2ogr of its inputs
into a GeoPackage) is its I/O floor: "x floor" is a row's median over the
copy's median (also in rail.json as each row's "x_floor"), and "GPU % wall"
the share of the median run's wall time spent in the trace's GPU stages
("gpu_stage_share"), where the row has a VSGPU_PROFILE trace.
"""


def _s(x):
    if x is None:
        return "–"
    return "%.3f" % x if x < 10 else "%.1f" % x


def _int(x):
    return "–" if x is None else "{:,}".format(int(x))


def _mib(b):
    return "–" if not b else "%.1f" % (b / 1048576.0)


def _esc(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _time_cell(r):
    st = r["status"]
    if st == "ok":
        return _s(r["median_s"])
    if st == "timeout":
        return "timeout > %g s" % r["runs"][-1]["limit_s"] if r["runs"] else "timeout"
    return "%s: %s" % (st, _esc(r["reason"] or ""))


def _speedup(r, ref):
    if (r is ref or ref is None or r["status"] != "ok" or ref["status"] != "ok"
            or r["check"]["status"] not in ("ok",)):
        return "–"
    return "%.2f×" % (ref["median_s"] / r["median_s"])


def floor_row(res, scale, workload):
    """The copy row of a workload when it ran and copied every feature, else
    None (then no row gets an x floor)."""
    for r in res["runs"]:
        if (r["engine"] == "copy" and r["scale"] == scale and r["workload"] == workload
                and r["status"] == "ok" and r["median_s"]
                and r["check"]["status"] in ("floor", "unchecked")):
            return r
    return None


def x_floor(r, floor):
    """Row median / copy median, or None: no floor, no time, or an answer
    that differs from the reference (no ratio against a wrong answer)."""
    if (floor is None or r["status"] != "ok" or not r["median_s"]
            or r["check"]["status"] in ("mismatch", "short copy")):
        return None
    return r["median_s"] / floor["median_s"]


def gpu_share(r):
    """GPU stages' time in the median run's trace / the row's median wall
    time, or None when the row has no trace (GDAL's engines, the copy)."""
    t = r.get("trace")
    if r["status"] != "ok" or not t or not r["median_s"]:
        return None
    return (t.get("gpu_stage_s") or 0.0) / r["median_s"]


def annotate(res):
    """Every row's x_floor, floor_s and gpu_stage_share, kept in rail.json."""
    floors = {}
    for r in res["runs"]:
        key = (r["scale"], r["workload"])
        if key not in floors:
            floors[key] = floor_row(res, *key)
        f = floors[key]
        r["floor_s"] = f["median_s"] if f else None
        r["x_floor"] = x_floor(r, f)
        r["gpu_stage_share"] = gpu_share(r)
    return res


def _x_floor_cell(r, floor):
    if r is floor:
        return "(floor)"
    x = x_floor(r, floor)
    return "–" if x is None else "%.2f×" % x


def _pct_cell(x):
    if x is None:
        return "–"
    return "%.1f%%" % (100 * x) if x >= 0.001 or x == 0 else "<0.1%"


def _machine_lines(res):
    m = res["machine"]
    lines = [
        "* Date: %s (UTC); rail time %.0f s" % (res["date_utc"], res.get("elapsed_s", 0)),
        "* Machine: `%s`, %s, %s logical CPUs (%s usable), %s GiB RAM, %s, kernel %s" % (
            m["host"], m["cpu_model"], m["logical_cpus"], m["usable_cpus"], m["memory_gib"],
            m["os"], m["kernel"]),
    ]
    if m["gpus"]:
        for g in m["gpus"]:
            lines.append(
                "* GPU: %s, driver %s, %s MiB, PCIe Gen%s x%s%s (link %.0f GB/s assumed), "
                "memory %s TB/s" % (
                    g["name"], g["driver"], g["memory_mib"], g["pcie_gen"], g["pcie_width"],
                    " (assumed)" if g["pcie_assumed"] else "", g["link_gbps"] or 0,
                    g["memory_tbps"] if g["memory_tbps"] else "unknown"))
    else:
        lines.append("* GPU: none (nvidia-smi absent or no device)")
    lines.append("* %s; VSGPU commit `%s`; Python %s" % (
        m["gdal"], (m["vsgpu_commit"] or "unknown")[:12], m["python"]))
    la0, la1 = m.get("load_average_start"), m.get("load_average_end")
    lines.append("* Load average at start %s, at end %s" % (
        " ".join("%.2f" % x for x in la0) if la0 else "–",
        " ".join("%.2f" % x for x in la1) if la1 else "–"))
    st = res["settings"]
    lines.append("* Command: `%s`" % " ".join(res["command"]))
    lines.append("* Reference: `%s`; timeout %g s per run; repeats %s (median and min "
                 "reported); area tolerance %g relative%s" % (
                     st["reference"], st["timeout_s"],
                     ", ".join("%s %d" % kv for kv in st["repeats"].items()), st["rtol"],
                     "; budget %g s" % st["budget_s"] if st["budget_s"] else ""))
    for mf in res.get("merged_from") or []:
        lines.append("* Merged run of %s on `%s`: `%s`" % (mf["date_utc"], mf["host"],
                                                         " ".join(mf["command"])))
    for g in res.get("generation") or []:
        lines.append("* Workloads %s generated in %.1f s" % (g["scale"], g["wall_s"]))
    return lines


def _scale_table(res, scale):
    ws = [w for w in res["workloads"] if w["scale"] == scale]
    ref_key = res["settings"]["reference"]
    out = ["| workload | input vertices | engine | median s | min s | runs | M vert/s "
           "| vs ref | × floor | peak RSS MiB | GPU pool MiB | GPU % wall | out features "
           "| out vertices | check |",
           "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
           "| ---: | ---: | --- |"]
    for w in ws:
        recs = [r for r in res["runs"] if r["scale"] == scale and r["workload"] == w["name"]]
        ref = next((r for r in recs if r["engine"] == ref_key), None)
        floor = floor_row(res, scale, w["name"])
        for i, r in enumerate(recs):
            o = r["output"] if r["output"] and "error" not in r["output"] else {}
            nruns = len([x for x in r["runs"] if x["rc"] == 0 and not x["timed_out"]])
            pool = r["trace"]["pool_peak_bytes"] if r["trace"] else None
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                       "| %s |" % (
                "%s (%s)" % (w["name"], w["op"]) if i == 0 else "",
                _int(w["vertices_total"]) if i == 0 else "",
                r["label"], _time_cell(r), _s(r["min_s"]) if r["status"] == "ok" else "",
                nruns or "", "%.2f" % (r["throughput_vps"] / 1e6) if r["throughput_vps"] else "–",
                "(ref)" if r is ref else _speedup(r, ref), _x_floor_cell(r, floor),
                "%.0f" % r["peak_rss_mib"] if r["peak_rss_mib"] else "–",
                _mib(pool), _pct_cell(gpu_share(r)),
                _int(o.get("features")), _int(o.get("vertices")),
                _esc(r["check"]["text"])))
    return out


def _floor_table(res):
    rows = [r for r in res["runs"] if r.get("gpu_floor") and r["status"] == "ok"]
    if not rows:
        return []
    out = ["| scale | workload | bytes H2D | bytes D2H | link floor s | memory floor s "
           "| GPU stages s | wall s | link floor / wall | GPU stages / wall | copy floor s "
           "| × floor |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        f, t = r["gpu_floor"], r["trace"]
        share = "%.1f%%" % (100 * f["link_floor_s"] / r["median_s"]) if f["link_floor_s"] else "–"
        cf = floor_row(res, r["scale"], r["workload"])
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["scale"], r["workload"], _int(t["bytes_h2d"]), _int(t["bytes_d2h"]),
            "%.2g" % f["link_floor_s"] if f["link_floor_s"] is not None else "–",
            "%.2g" % f["memory_floor_s"] if f["memory_floor_s"] is not None else "–",
            _s(t["gpu_stage_s"]), _s(r["median_s"]), share, _pct_cell(gpu_share(r)),
            _s(cf["median_s"]) if cf else "–", _x_floor_cell(r, cf)))
    return out


def _stage_lines(res):
    out = []
    for r in res["runs"]:
        t = r.get("trace")
        if not t or r["status"] != "ok":
            continue
        parts = sorted(t["stages"], key=lambda s: -(s["elapsed_s"] or 0))
        txt = ", ".join("%s%s %.3f" % (s["stage"], "@GPU" if s["device"] == "GPU" else "",
                                       s["elapsed_s"] or 0) for s in parts[:6])
        other = r["median_s"] - (t["total_s"] or 0)
        out.append("* %s %s, %s: %s; outside the trace %.3f s (process, open, write)" % (
            r["scale"], r["workload"], r["label"], txt, max(other, 0.0)))
    return out


def _workload_table(res):
    out = ["| scale | workload | op | input (features / vertices) | method (features / vertices) "
           "| description |", "| --- | --- | --- | --- | --- | --- |"]
    for w in res["workloads"]:
        meth = "%s: %s / %s" % (w["method"]["layer"], _int(w["method_features"]),
                                _int(w["method_vertices"])) if w["method"] else (
            "rect %s" % w["rect"] if w["rect"] else ("group by %s" % ", ".join(w.get("key_lead", []) + [w["group_by"]])
                                                     if w["group_by"] else "all in one"))
        out.append("| %s | %s | %s | %s: %s / %s | %s | %s |" % (
            w["scale"], w["name"], w["op"], w["input"]["layer"], _int(w["input_features"]),
            _int(w["input_vertices"]), _esc(meth), _esc(w["description"])))
    return out


def markdown(res):
    scales = []
    for w in res["workloads"]:
        if w["scale"] not in scales:
            scales.append(w["scale"])
    md = ["# VSGPU benchmark rail, %s" % res["date_utc"][:10], ""]
    md += _machine_lines(res) + [""]
    md += ["Times are wall seconds of the whole child process (open, compute, write "
           "every output feature to a GeoPackage). M vert/s = input + method vertices "
           "per second of the median run. vs ref = reference median / row median, only "
           "for rows whose answer matches the reference. × floor = row median / the "
           "median of the workload's copy row (ogr2ogr copy (I/O floor): a plain ogr2ogr "
           "of the workload's input layers into a GeoPackage, its I/O floor; not for "
           "rows whose answer differs). GPU % wall = the GPU stages of the median run's "
           "VSGPU_PROFILE trace over the row's median (– without a trace). "
           "Correctness: every output measured by vsgbench_measure and compared with "
           "the reference (area within the tolerance, same number of polygonal "
           "features, no NULL geometry, same groups with the same areas).", ""]
    for s in scales:
        md += ["## Scale %s" % s, ""] + _scale_table(res, s) + [""]
    fl = _floor_table(res)
    if fl:
        md += ["## GPU rows: the data-movement floor", "",
               "Bytes copied between host and device (the trace's bytes_h2d + bytes_d2h) "
               "over the host link and over the GPU memory bandwidth.",
               "Assumptions: %s. %s." % (res["assumptions"]["link"], res["assumptions"]["memory"]),
               ""] + fl + [""]
    st = _stage_lines(res)
    if st:
        md += ["## Stage breakdown (VSGPU_PROFILE, median run; seconds, largest first)", ""] + st + [""]
    if res.get("plots"):
        md += ["## Plots", ""] + ["* [%s](%s)" % (p, p) for p in res["plots"]] + [""]
    md += ["## Workloads", ""] + _workload_table(res) + [""]
    md += ["## Commands", "", "<details><summary>every engine run</summary>", ""]
    for r in res["runs"]:
        if r["command"]:
            env = " ".join("%s=%s" % kv for kv in (r["env"] or {}).items())
            md.append("* %s %s %s: `%s%s`" % (r["scale"], r["workload"], r["engine"],
                                              env + " " if env else "", r["command"]))
    md += ["", "</details>", ""]
    return "\n".join(md)
