"""Markdown rendering of a cpu_bench.py result document."""

_VSGPU_MD_KEYS = ("THREADS", "SELECTED_RUNTIME", "INVALID_REPAIRED", "INVALID_SKIPPED",
                  "LOWER_DIMENSION_DROPPED", "FAILURES_SKIPPED", "NULL_GEOMETRIES",
                  "EMPTY_GEOMETRIES", "TYPE_SKIPPED", "CANDIDATE_PAIRS",
                  "COVERAGE_UNION_GROUPS", "UNARY_UNION_GROUPS", "COMPLETE")


def _s(v, fmt="%.3f"):
    return "–" if v is None else fmt % v


def short(row):
    if row.get("error"):
        return "ERROR " + row["error"][:150]
    return "best %.3f s  out %d (areal %d, NULL %d, non-areal %d)  area %.10g" % (
        row["best_s"], row["features"], row["areal"], row["null"], row["non_areal"],
        row["area"])


def _md_row(r):
    if r.get("error"):
        return "| %s | – | – | – | – | – | – | – | – | – | – | ERROR: %s |" % (
            r["label"], r["error"].replace("|", "/")[:200])
    mvs = r.get("vertices_per_s")
    sp = r.get("speedup_vs_ref")
    rel = r.get("area_rel_vs_ref")
    relo = r.get("area_rel_vs_oracle")
    return "| %s | %s | %s | %s | %s | %d | %d | %d | %.10g | %s | %s | %s |" % (
        r["label"],
        _s(r.get("best_s")), _s(r.get("median_s")),
        _s(mvs / 1e6 if mvs else None, "%.3f"),
        _s(sp, "%.2f×"),
        r["features"], r["null"], r["non_areal"], r["area"],
        _s(rel, "%+.2g"), _s(relo, "%+.2g"),
        r["check"].replace("|", "/"))


def markdown(doc):
    m = doc["machine"]
    git = m.get("vsgpu_git") or {}
    L = []
    L.append("# VSGPU CPU benchmark (%s run)" % doc["mode"])
    L.append("")
    L.append("* Machine: `%s`, %s, %s logical CPUs (%s usable), %.1f GiB RAM; %s" % (
        m["host"], m["cpu_model"], m["cpu_count"], m["cpus_usable"],
        (m["mem_total_bytes"] or 0) / 2**30, m["os"]))
    L.append("* GDAL %s, GEOS %s, SpatiaLite %s, Python %s" % (
        m["gdal"], m["geos"], m["spatialite"], m["python"]))
    L.append("* VSGPU: %s (plugin %s)%s" % (
        ("commit %s%s" % (git.get("commit", "?")[:12], " + uncommitted changes" if git.get("dirty") else ""))
        if git else "?", doc["plugin_dir"], "" if doc["vsgpu_loaded"] else " — NOT LOADED, rows skipped"))
    L.append("* Date (UTC): %s; duration %.0f s; load average at start %s, at end %s" % (
        doc["date_utc"], doc["duration_s"],
        " ".join("%.2f" % x for x in m["loadavg_start"]),
        " ".join("%.2f" % x for x in m["loadavg_end"])))
    L.append("* Command: `%s`" % doc["command"])
    L.append("* Timing: wall clock, end to end (open, compute, fetch every output feature "
             "and touch its geometry), best of %d timed runs (SQLite dissolve: %d) after %s; "
             "ogr2ogr rows time the whole process writing a GeoPackage (process start "
             "included). "
             "Mvert/s = input vertices (input + method layer) / best time. "
             "× vs ref = reference time / engine time (> 1: faster than the reference); "
             "in-process rows are divided into the in-process reference, ogr2ogr rows "
             "into the ogr2ogr reference (rectangle clips: `OGRLayer.Clip by a rectangle "
             "layer` and `ogr2ogr -clipsrc`)." % (
                 doc["repeat"], doc["sqlite_dissolve_repeat"],
                 "one untimed warm-up run" if doc["warmup"] else "no warm-up"))
    L.append("* Correctness: areal output count and total area compared with the reference "
             "row and with the untimed oracle (dissolve: the layer the groups must rebuild; "
             "overlays: GDAL's OGRLayer.Intersection/Clip on inputs whose invalid geometries "
             "were repaired with MakeValid METHOD=STRUCTURE, which is what VSGPU's default "
             "INVALID=REPAIR does). A row is **MISMATCH** when it differs from the oracle "
             "(from the reference where there is no oracle), has NULL geometries or changes "
             "between repeats; areas differ when the relative difference exceeds %g. NULL = "
             "output features with a NULL geometry; non-areal = point/line outputs (not "
             "counted)." % doc["area_rtol"])
    L.append("")
    wl = {w["name"]: w for w in doc["workloads"]}
    by = {}
    for r in doc["results"]:
        by.setdefault(r["workload"], []).append(r)
    L.extend(summary(wl, by))
    for name, rows in by.items():
        w = wl[name]
        L.append("## %s" % name)
        L.append("")
        desc = "%s of `%s`" % (w["op"], w["input"])
        if w.get("method"):
            desc += " by `%s`" % w["method"]
        if w.get("key_sql"):
            desc += " grouped by `%s`" % w["key_sql"]
        if w.get("rect"):
            desc += " by rectangle %s" % (tuple(w["rect"]),)
        L.append("%s — %s; %d + %d input features, %d input vertices." % (
            desc, w["source"], w["input_features"], w["method_features"], w["vertices"]))
        L.append("")
        L.append("| engine | best s | median s | Mvert/s | × vs ref | out features | NULL | "
                 "non-areal | total area | Δarea vs ref | Δarea vs oracle | check |")
        L.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for r in rows:
            L.append(_md_row(r))
        L.append("")
        L.extend(_notes(doc["notes"].get(name, {}), rows))
    return "\n".join(L) + "\n"


def _cell(r):
    if r is None:
        return "–"
    if r.get("error"):
        return "ERROR"
    if not r.get("best_s"):
        return "–"
    sp = r.get("speedup_vs_ref")
    return "%.3f%s" % (r["best_s"], " (%.2f×)" % sp if sp else "")


def summary(wl, by):
    """One line per workload: best times (× vs the in-process reference) and
    whether each engine's output matches the oracle."""
    L = ["## Summary", "",
         "Best wall time in seconds (× = speed relative to the in-process reference: "
         "> 1 is faster). Last column: rows whose output differs from the oracle "
         "(or the reference), or has NULL geometries.", "",
         "| workload | input vertices | in-process reference | ref s | VSGPU 1 thread | "
         "VSGPU ALL_CPUS | SQLite | flagged rows |",
         "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |"]
    for name, rows in by.items():
        get = {r["engine"]: r for r in rows}
        tref = next((r for r in rows if r.get("is_time_reference") and r.get("kind") == "inproc"),
                    None)
        flagged = [r["label"] for r in rows
                   if r["engine"] != "oracle" and (r.get("error") or
                                                   r.get("check", "").startswith("**MISMATCH"))]
        L.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
            name, wl[name]["vertices"], tref["label"] if tref else "–",
            _s(tref.get("best_s")) if tref else "–",
            _cell(get.get("vsgpu_1")), _cell(get.get("vsgpu_all")),
            _cell(get.get("sqlite")) if get.get("sqlite") is not tref else "(ref)",
            "; ".join(flagged) or "none"))
    L.append("")
    return L


def _notes(n, rows):
    L = []
    p = n.get("ogr_without_skip_failures")
    if p:
        if p["rc"]:
            L.append("* OGRLayer without `SKIP_FAILURES=YES`: rc=%s, stopped after %s features "
                     "(`%s`); timed with `SKIP_FAILURES=YES`, which drops the failing pairs "
                     "silently." % (p["rc"], p["features_before_stop"], p["first_error"]))
        else:
            L.append("* OGRLayer also succeeds without `SKIP_FAILURES=YES`.")
    c = n.get("sqlite_prefilter_check")
    if c:
        L.append("* SQLite R-tree pre-filter check (`%s`): %s pairs with the pre-filter "
                 "(%.2f s), %s with the plain `ST_Intersects` join (%.2f s): %s." % (
                     c["where"], c["prefilter"]["pairs"], c["prefilter"]["s"],
                     c["plain"]["pairs"], c["plain"]["s"],
                     "equal" if c["equal"] else "**DIFFERENT**"))
    v1 = next((r for r in rows if r["engine"] == "vsgpu_1" and r.get("best_s")), None)
    va = next((r for r in rows if r["engine"] == "vsgpu_all" and r.get("best_s")), None)
    if v1 and va:
        same = (v1["areal"], v1["null"], v1["area"]) == (va["areal"], va["null"], va["area"])
        L.append("* VSGPU thread scaling: 1 thread %.3f s / ALL_CPUS %.3f s = %.2f×; "
                 "outputs (count, total area) %s." % (
                     v1["best_s"], va["best_s"], v1["best_s"] / va["best_s"],
                     "identical" if same else "**DIFFER**"))
    for r in rows:
        if r.get("error"):
            continue
        bits = []
        if r.get("null_keys"):
            bits.append("NULL geometry for keys %s" % ", ".join(str(k) for k in r["null_keys"]))
        md = (r.get("extra") or {}).get("vsgpu_metadata") or {}
        kv = ["%s=%s" % (k, md[k]) for k in _VSGPU_MD_KEYS if md.get(k) not in (None, "", "0")]
        if kv:
            bits.append("VSGPU metadata " + ", ".join(kv))
        d = r.get("diagnostics") or {}
        if d.get("gdal_failures") or d.get("gdal_warnings"):
            bits.append("%d GDAL errors, %d warnings (first: `%s`)" % (
                d["gdal_failures"], d["gdal_warnings"],
                (d.get("messages_head") or [""])[0][:160]))
        if d.get("stderr_lines"):
            bits.append("%d stderr lines (first: `%s`)" % (
                d["stderr_lines"], d["stderr_head"][0][:160]))
        ex = r.get("extra") or {}
        if ex.get("stderr_lines"):
            bits.append("ogr2ogr wrote %d stderr lines (first: `%s`)" % (
                ex["stderr_lines"], ex["stderr_head"][0][:160]))
        if bits:
            L.append("* %s: %s." % (r["label"], "; ".join(bits)))
    if L:
        L.append("")
    return L
