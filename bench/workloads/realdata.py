"""The "real" workloads: the polygon layers shipped in data/, used where they
are (no copy), with the same operations as the generated ones.

They are scale-free (`--scale real`). Counts are read from the files
themselves (gpkg.layer_facts: every geometry blob parsed with sqlite3 alone),
never written down here. The only generated file is the 10 x 10 grid laid
over the NYC boroughs (`real_nybb_grid.gpkg`, in the boroughs' CRS), as in
the CPU benchmark of the previous issue.

The counties -> states dissolve groups by an expression, substr(id, 1, 2):
its entry carries "group_expr" (the SQL expression) beside "group_by" (the
name of the output field that holds it, "st").
"""
import os

import gpkg
import shapes

COUNTIES = "us_atlas_counties_10m.gpkg"
SPDATA = "r_spdata.gpkg"
NYBB = "nybb.gpkg"
RECT_COUNTIES = [-80.0, 35.0, -75.0, 40.0]                  # lon/lat
RECT_NYBB = [970000.0, 170000.0, 1010000.0, 230000.0]      # EPSG:2263 feet
NYBB_GRID = 10

# name, op, (file, layer), method (file, layer) or None, rect, group_by,
# group_expr, description
_REAL = [
    ("real_counties_x_states", "intersection", (COUNTIES, "counties"),
     (COUNTIES, "states"), None, None, None,
     "US counties (us-atlas 10m, 22 invalid) intersected with the states"),
    ("real_counties_clip_states", "clip", (COUNTIES, "counties"),
     (COUNTIES, "states"), None, None, None, "US counties clipped by the states"),
    ("real_ny8_x_ny8bna", "intersection", (SPDATA, "NY8_utm18"),
     (SPDATA, "NY8_bna_utm18"), None, None, None,
     "two digitisings of the same 281 New York census tracts (sliver-rich)"),
    ("real_nybb_x_grid", "intersection", (NYBB, "nybb"), ("@grid", "grid"),
     None, None, None,
     "NYC boroughs (5 features, many vertices) intersected with a 10 x 10 grid"),
    ("real_counties_clip_rect", "clip_rect", (COUNTIES, "counties"), None,
     RECT_COUNTIES, None, None, "US counties clipped by the rectangle -80 35 -75 40"),
    ("real_nybb_clip_rect", "clip_rect", (NYBB, "nybb"), None, RECT_NYBB, None,
     None, "NYC boroughs clipped by 970000 170000 1010000 230000 (EPSG:2263 ft)"),
    ("real_counties_dissolve_states", "dissolve", (COUNTIES, "counties"), None,
     None, "st", "substr(id, 1, 2)",
     "US counties dissolved into states by substr(id, 1, 2); the 'states' "
     "layer is the exact answer"),
    ("real_counties_dissolve_all", "dissolve", (COUNTIES, "counties"), None,
     None, None, None, "all US counties dissolved into one (the nation)"),
    ("real_nybb_dissolve_all", "dissolve", (NYBB, "nybb"), None, None, None,
     None, "the five NYC boroughs dissolved into one"),
]

NAMES = [r[0] for r in _REAL]


def data_dir():
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "..", "..", "data"))


def _nybb_grid(out):
    src = os.path.join(data_dir(), NYBB)
    facts = gpkg.layer_facts(src, "nybb")
    xmin, ymin, xmax, ymax = facts["extent"]
    dx, dy = (xmax - xmin) * 0.01, (ymax - ymin) * 0.01
    cells, row, col = shapes.grid((xmin - dx, ymin - dy, xmax + dx, ymax + dy),
                                  NYBB_GRID)
    path = os.path.join(out, "real_nybb_grid.gpkg")
    srs = gpkg.srs_row_of(src, "nybb")
    gpkg.write(path, [gpkg.Layer("grid", "POLYGON", cells,
                                 [("cell", "INTEGER", range(1, cells.features + 1)),
                                  ("row", "INTEGER", row), ("col", "INTEGER", col)])],
               srs_id=srs[1], srs_row=srs)
    return path


def workload(name, out):
    """The manifest entry of one real workload (writes the grid if needed)."""
    spec = next(r for r in _REAL if r[0] == name)
    _, op, (ifile, ilayer), method, rect, group_by, group_expr, desc = spec
    ipath = os.path.join(data_dir(), ifile)
    ifacts = gpkg.layer_facts(ipath, ilayer)
    entry = {"name": name, "op": op,
             "input": {"path": ipath, "layer": ilayer}, "method": None,
             "rect": rect, "group_by": group_by, "group_expr": group_expr,
             "input_features": ifacts["features"],
             "input_vertices": ifacts["vertices"],
             "method_features": 0, "method_vertices": 0,
             "description": desc}
    if method:
        mfile, mlayer = method
        mpath = _nybb_grid(out) if mfile == "@grid" else os.path.join(data_dir(), mfile)
        mfacts = gpkg.layer_facts(mpath, mlayer)
        entry["method"] = {"path": os.path.abspath(mpath), "layer": mlayer}
        entry["method_features"] = mfacts["features"]
        entry["method_vertices"] = mfacts["vertices"]
    return entry
