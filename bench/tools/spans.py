#!/usr/bin/env python3
"""The timeline of a VSGPU_PROFILE trace (its "spans", docs/profiling.md):
per thread, how long it was busy and with what; how much of the reader's
reading overlapped the other threads' work; and, with --all, every span in
time order.

    python3 bench/tools/spans.py trace.json [--all]
"""
import json
import sys


def merged(intervals):
    """The union of (start, end) intervals, as a sorted disjoint list."""
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def overlap(xs, ys):
    """Seconds where the unions of xs and ys overlap."""
    xs, ys = merged(xs), merged(ys)
    i = j = 0
    t = 0.0
    while i < len(xs) and j < len(ys):
        a, b = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
        t += max(0.0, b - a)
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return t


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    t = json.load(open(argv[1]))
    spans = t.get("spans", [])
    if not spans:
        print("no spans in this trace (written before they existed?)")
        return 1
    end = max(s["end_s"] for s in spans)
    print("%d spans over %.3f s (%d dropped)" % (len(spans), end, t.get("spans_dropped", 0)))
    threads = sorted({s["thread"] for s in spans})
    for th in threads:
        mine = [s for s in spans if s["thread"] == th]
        busy = sum(b - a for a, b in merged([(s["start_s"], s["end_s"]) for s in mine]))
        by = {}
        for s in mine:
            by[s["stage"]] = by.get(s["stage"], 0.0) + s["end_s"] - s["start_s"]
        top = sorted(by.items(), key=lambda kv: -kv[1])[:6]
        print("thread %d: %.3f s busy, %.3f-%.3f s; %s" % (
            th, busy, min(s["start_s"] for s in mine), max(s["end_s"] for s in mine),
            ", ".join("%s %.3f" % kv for kv in top)))
    reads = [(s["start_s"], s["end_s"]) for s in spans if s["stage"] == "ogr_read_input"]
    rest = [(s["start_s"], s["end_s"]) for s in spans
            if s["stage"] not in ("ogr_read_input", "read_ahead_wait")]
    if reads:
        r = sum(b - a for a, b in merged(reads))
        print("ogr_read_input: %.3f s, of which %.3f s beside other stages" % (r, overlap(reads, rest)))
    if "--all" in argv:
        for s in sorted(spans, key=lambda s: s["start_s"]):
            print("  %8.4f %8.4f  t%d  %s" % (s["start_s"], s["end_s"], s["thread"], s["stage"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
