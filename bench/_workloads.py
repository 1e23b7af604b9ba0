"""Workload definitions and the data preparation they need (quick subsets,
the nybb grid)."""
import os

from osgeo import gdal, ogr

from _stats import layer_vertices

COUNTIES = "us_atlas_counties_10m.gpkg"
SPDATA = "r_spdata.gpkg"
GEOPANDAS = "nybb.gpkg"

# states whose counties SQLite's ST_Union turns into NULL (06, 22, 51) and a
# few more, for --quick
QUICK_STATES = ("04", "06", "22", "32", "41", "51")
RECT_COUNTIES = (-80.0, 35.0, -75.0, 40.0)       # lon/lat, as scripts/demo.sh
RECT_NYBB = (970000.0, 170000.0, 1010000.0, 230000.0)  # EPSG:2263 feet
NYBB_GRID = 10  # cells per side of the grid laid over nybb


def definitions():
    """All workloads, in run order. 'file' is relative to the data folder
    (or to the work folder for generated files)."""
    return [
        dict(name="counties_x_states", op="intersection", file=COUNTIES,
             input="counties", method="states", prefilter_check="a.fid <= 40"),
        dict(name="counties_clip_states", op="clip", file=COUNTIES,
             input="counties", method="states"),
        dict(name="ny8_x_ny8bna", op="intersection", file=SPDATA,
             input="NY8_utm18", method="NY8_bna_utm18",
             prefilter_check="a.fid <= 60"),
        dict(name="nybb_x_grid", op="intersection", file="@nybb_grid",
             input="nybb", method="grid", prefilter_check=None),
        dict(name="counties_dissolve", op="dissolve", file=COUNTIES,
             input="counties", key_sql="substr(id, 1, 2)", key_alias="st",
             oracle=dict(layer="states", where=None)),
        dict(name="counties_dissolve_all", op="dissolve", file=COUNTIES,
             input="counties", oracle=dict(layer="states", where=None, as_one=True)),
        dict(name="nybb_dissolve_all", op="dissolve", file=GEOPANDAS,
             input="nybb"),
        dict(name="counties_rectclip", op="rectclip", file=COUNTIES,
             input="counties", rect=RECT_COUNTIES),
        dict(name="nybb_rectclip", op="rectclip", file=GEOPANDAS,
             input="nybb", rect=RECT_NYBB),
    ]


def default_data_dirs(repo):
    """The repository's data/ (every file the workloads need ships there)."""
    return [os.path.join(repo, "data")]


def find_file(data_dirs, name):
    for d in data_dirs:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    raise RuntimeError("%s not found in %s" % (name, ", ".join(data_dirs)))


def _translate(dst, src, layer, where=None, new_name=None, append=False):
    opts = gdal.VectorTranslateOptions(
        format="GPKG", layers=[layer], where=where,
        layerName=new_name or layer,
        accessMode="update" if append else None)
    ds = gdal.VectorTranslate(dst, src, options=opts)
    if ds is None:
        raise RuntimeError("cannot write %s:%s" % (dst, layer))
    ds = None


def _write_grid(dst, layer_src, n):
    """n x n grid of square-ish cells over the extent of layer_src, written
    as layer 'grid' into dst (same CRS)."""
    xmin, xmax, ymin, ymax = layer_src.GetExtent()
    dx, dy = (xmax - xmin) * 0.01, (ymax - ymin) * 0.01
    xmin, xmax, ymin, ymax = xmin - dx, xmax + dx, ymin - dy, ymax + dy
    ds = gdal.OpenEx(dst, gdal.OF_VECTOR | gdal.OF_UPDATE)
    lyr = ds.CreateLayer("grid", layer_src.GetSpatialRef(), ogr.wkbPolygon)
    for name in ("cell", "row", "col"):
        lyr.CreateField(ogr.FieldDefn(name, ogr.OFTInteger))
    sx, sy = (xmax - xmin) / n, (ymax - ymin) / n
    ds.StartTransaction()
    for r in range(n):
        for c in range(n):
            x0, y0 = xmin + c * sx, ymin + r * sy
            ring = ogr.Geometry(ogr.wkbLinearRing)
            for x, y in ((x0, y0), (x0 + sx, y0), (x0 + sx, y0 + sy),
                         (x0, y0 + sy), (x0, y0)):
                ring.AddPoint_2D(x, y)
            poly = ogr.Geometry(ogr.wkbPolygon)
            poly.AddGeometry(ring)
            f = ogr.Feature(lyr.GetLayerDefn())
            f.SetField("cell", r * n + c)
            f.SetField("row", r)
            f.SetField("col", c)
            f.SetGeometry(poly)
            lyr.CreateFeature(f)
    ds.CommitTransaction()
    ds = None


def prepare(workloads, data_dirs, work_dir, quick, only=None):
    """Resolve paths (writing quick subsets and generated layers into
    work_dir), layer facts and input vertex counts. Returns the list of
    workloads to run, each a filled dict."""
    out = []
    made = {}

    def quick_file(src_name):
        """The --quick subset of one data file (cached)."""
        if src_name in made:
            return made[src_name]
        src = find_file(data_dirs, src_name)
        dst = os.path.join(work_dir, "quick_" + src_name)
        if src_name == COUNTIES:
            ids = ", ".join("'%s'" % s for s in QUICK_STATES)
            _translate(dst, src, "counties", where="substr(id, 1, 2) IN (%s)" % ids)
            _translate(dst, src, "states", append=True)
        elif src_name == SPDATA:
            _translate(dst, src, "NY8_utm18", where="fid <= 100")
            _translate(dst, src, "NY8_bna_utm18", where="fid <= 100", append=True)
        elif src_name == GEOPANDAS:
            _translate(dst, src, "nybb", where="BoroName IN ('Manhattan', 'Bronx')")
        else:
            raise ValueError(src_name)
        made[src_name] = dst
        return dst

    for w in workloads:
        if only and w["name"] not in only:
            continue
        w = dict(w)
        if w["file"] == "@nybb_grid":
            path = os.path.join(work_dir, "nybb_grid.gpkg")
            if not os.path.exists(path):
                src = quick_file(GEOPANDAS) if quick else find_file(data_dirs, GEOPANDAS)
                _translate(path, src, "nybb")
                ds = gdal.OpenEx(path, gdal.OF_VECTOR)
                _write_grid(path, ds.GetLayerByName("nybb"), NYBB_GRID)
                ds = None
            w["source"] = "%s nybb + generated %dx%d grid" % (GEOPANDAS, NYBB_GRID, NYBB_GRID)
        else:
            path = quick_file(w["file"]) if quick else find_file(data_dirs, w["file"])
            w["source"] = w["file"] + (" (quick subset)" if quick else "")
        w["path"] = path
        ds = gdal.OpenEx(path, gdal.OF_VECTOR)
        if ds is None:
            raise RuntimeError("cannot open " + path)
        a = ds.GetLayerByName(w["input"])
        if a is None:
            raise RuntimeError("no layer %s in %s" % (w["input"], path))
        w["geom_col"] = a.GetGeometryColumn() or "geom"
        w["fid_col"] = a.GetFIDColumn() or "fid"
        da = a.GetLayerDefn()
        w["input_fields"] = [da.GetFieldDefn(i).GetName() for i in range(da.GetFieldCount())]
        nf, nv = layer_vertices(a)
        w["input_features"], w["input_vertices"] = nf, nv
        w["method_features"] = w["method_vertices"] = 0
        if w.get("method"):
            b = ds.GetLayerByName(w["method"])
            w["method_geom_col"] = b.GetGeometryColumn() or "geom"
            w["method_fid_col"] = b.GetFIDColumn() or "fid"
            db = b.GetLayerDefn()
            w["method_fields"] = [db.GetFieldDefn(i).GetName() for i in range(db.GetFieldCount())]
            w["method_features"], w["method_vertices"] = layer_vertices(b)
        w["vertices"] = w["input_vertices"] + w["method_vertices"]
        if w.get("oracle") and quick and w["file"] == COUNTIES:
            w["oracle"] = dict(w["oracle"], where="id IN (%s)" % ", ".join(
                "'%s'" % s for s in QUICK_STATES))
        ds = None
        out.append(w)
    return out
