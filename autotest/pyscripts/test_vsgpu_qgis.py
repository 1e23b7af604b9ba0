"""QGIS itself on the two routes of docs/usage.md ("QGIS"), headless:

* a PyQGIS layer on VSGPU:<gpkg>|layername=...|option:DIALECT=VSGPU whose
  subset string is a VSGPU dissolve (QGIS's OGR provider hands a subset
  string starting with SELECT to ExecuteSQL with no dialect);
* Processing's gdal:executesql with dialect None on such a source
  (qgis_process runs ogr2ogr with -oo DIALECT=VSGPU and no -dialect);
* the .vsgpu descriptor opened as a QGIS layer.

Skipped where qgis.core cannot be imported (Debian 12 hosts); run in the
Debian sid root (scripts/debian-root.sh) with QGIS 3.44 and GDAL 3.13.
"""

import os
import shutil
import subprocess

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
qgis_core = pytest.importorskip("qgis.core", reason="QGIS (python3-qgis) is not installed")

from osgeo import ogr  # noqa: E402

import vsgpu_util as vu  # noqa: E402

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

DISSOLVE = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
N_STATES = 56


@pytest.fixture(scope="module")
def qgs(plugin_dir):
    """One QgsApplication for the module, without a GUI; the prefix path is
    the system's (QgsApplication finds it from where qgis is installed)."""
    os.environ["GDAL_DRIVER_PATH"] = plugin_dir
    app = qgis_core.QgsApplication([], False)
    app.initQgis()
    yield app
    # exitQgis() tears down GDAL state that the rest of the pytest session
    # (same process) still uses: left to the process exit.


class Messages:
    """What GDAL and QGIS's message log say during a block: GDAL errors
    (QGIS leaves its own handler to the caller outside provider calls) and
    the log entries (where QGIS puts GDAL errors inside them)."""

    def __enter__(self):
        self.gdal = vu.ErrorCollector().__enter__()
        self.log = []
        self._slot = lambda msg, tag, level: self.log.append((tag, int(level), msg))
        qgis_core.QgsApplication.messageLog().messageReceived.connect(self._slot)
        return self

    def __exit__(self, *exc):
        qgis_core.QgsApplication.messageLog().messageReceived.disconnect(self._slot)
        self.gdal.__exit__(*exc)
        return False

    def problems(self):
        """Failures, and warnings that are not the statement's own VSGPU
        reports (the CPU fallback and counter warnings, docs/fallback.md)."""
        out = list(self.gdal.failures)
        out += [m for m in self.gdal.warnings if not m.startswith("VSGPU:")]
        out += [m for tag, level, m in self.log
                if level >= int(qgis_core.Qgis.MessageLevel.Warning) and "VSGPU:" not in m]
        return out


def layer_states(layer):
    """(features, features with a NULL or empty geometry) of a QGIS layer."""
    n = bad = 0
    for f in layer.getFeatures():
        n += 1
        g = f.geometry()
        if g is None or g.isNull() or g.isEmpty():
            bad += 1
    return n, bad


def test_subset_string_runs_the_dissolve(qgs, counties_gpkg):
    uri = "VSGPU:%s|layername=counties|option:DIALECT=VSGPU" % os.path.abspath(counties_gpkg)
    with Messages() as said:
        layer = qgis_core.QgsVectorLayer(uri, "c", "ogr")
        assert layer.isValid(), layer.error().message()
        assert layer.featureCount() == 3231
        assert layer.setSubsetString(DISSOLVE), layer.error().message()
        assert layer.isValid()
        assert layer_states(layer) == (N_STATES, 0)
        assert layer.featureCount() == N_STATES
        assert "st" in [f.name() for f in layer.fields()]
    # no NOLOCK warning, no OGR SQL parse error of the statement used as a
    # filter (both seen with QGIS 3.44 before the driver handled them)
    assert not said.problems(), said.problems()


def test_subset_string_filter_still_works(qgs, counties_gpkg):
    """A plain filter subset (no SELECT) is SetAttributeFilter, untouched."""
    uri = "VSGPU:%s|layername=counties|option:DIALECT=VSGPU" % os.path.abspath(counties_gpkg)
    layer = qgis_core.QgsVectorLayer(uri, "c", "ogr")
    assert layer.setSubsetString("id LIKE '06%'")
    assert layer.featureCount() == 58


def test_descriptor_as_a_qgis_layer(qgs, tmp_path, counties_gpkg):
    path = tmp_path / "states.vsgpu"
    path.write_text("# VSGPU\nSOURCE=%s\nDIALECT=VSGPU\n" % os.path.abspath(counties_gpkg))
    layer = qgis_core.QgsVectorLayer("%s|layername=counties" % path, "d", "ogr")
    assert layer.isValid(), layer.error().message()
    assert layer.setSubsetString(DISSOLVE)
    assert layer_states(layer) == (N_STATES, 0)
    # the file dialogs list the extension
    filters = qgis_core.QgsProviderRegistry.instance().fileVectorFilters()
    assert "*.vsgpu" in filters.lower(), filters


def qgis_process():
    exe = shutil.which("qgis_process") or shutil.which("qgis_process-qgis")
    if exe is None:
        pytest.skip("qgis_process is not installed")
    return exe


def test_processing_executesql_dialect_none(qgs, tmp_path, plugin_dir, counties_gpkg):
    """qgis_process reports every line ogr2ogr writes to stderr as an
    ERROR: line, GDAL warnings included. The run asks for the CPU engine
    (option:EXECUTION_MODE=CPU), as a user of a build or machine without a
    GPU would, so the CPU fallback warning is not due; what remains is the
    statement's one counter warning (22 invalid counties repaired, which
    VSGPU never does silently), and nothing else."""
    exe = qgis_process()
    out = str(tmp_path / "states.gpkg")
    src = "VSGPU:%s|layername=counties|option:DIALECT=VSGPU|option:EXECUTION_MODE=CPU" % (
        os.path.abspath(counties_gpkg))
    env = vu.cli_env(plugin_dir, env={"QT_QPA_PLATFORM": "offscreen"})
    p = subprocess.run([exe, "run", "gdal:executesql", "--INPUT=" + src, "--SQL=" + DISSOLVE,
                        "--DIALECT=0", "--OUTPUT=" + out],
                       env=env, capture_output=True, text=True, timeout=600)
    log = p.stdout + p.stderr
    assert p.returncode == 0, log
    errors = [l for l in log.splitlines() if l.startswith("ERROR")]
    assert len(errors) <= 1, log
    for line in errors:
        assert "VSGPU: ST_Union: " in line and "repaired" in line, log
        assert not vu.FALLBACK_RE.search(line), log
    # what qgis_process ran: the open option, and no -dialect
    assert "-oo DIALECT=VSGPU" in log and "-dialect" not in log, log
    ds = ogr.Open(out)
    assert ds is not None, log
    feats = vu.read_features(ds.GetLayer(0))
    assert len(feats) == N_STATES, log
    assert not [f for f in feats if f.geom is None or f.geom.IsEmpty()], log
