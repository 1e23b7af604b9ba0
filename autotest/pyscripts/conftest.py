"""pytest configuration for the VSGPU autotest suite.

Finds ogr_VSGPU.so before osgeo is imported (GDAL reads GDAL_DRIVER_PATH
once, when it registers its drivers), registers the drivers and stops the
session with an error when the VSGPU driver is missing: a suite that skips
everything would pass without testing anything.

Plugin search order: $GDAL_DRIVER_PATH, $VSGPU_BUILD_DIR/gdalplugins,
<repo>/build/gdalplugins.
"""

import os
import pathlib
import uuid

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
PLUGIN_NAME = "ogr_VSGPU.so"


def _plugin_dir_candidates():
    cands = []
    env = os.environ.get("GDAL_DRIVER_PATH")
    if env:
        cands += [p for p in env.split(os.pathsep) if p]
    build = os.environ.get("VSGPU_BUILD_DIR")
    if build:
        cands.append(os.path.join(build, "gdalplugins"))
    cands.append(str(REPO_ROOT / "build" / "gdalplugins"))
    return cands


def _find_plugin_dir():
    for d in _plugin_dir_candidates():
        if os.path.isfile(os.path.join(d, PLUGIN_NAME)):
            return os.path.abspath(d)
    return None


PLUGIN_DIR = _find_plugin_dir()
if PLUGIN_DIR:
    os.environ["GDAL_DRIVER_PATH"] = PLUGIN_DIR

# The suite must not depend on the caller's shell: GDAL reads environment
# variables as configuration options, so VSGPU_* settings (and CUDA device
# selection) left in the environment would change what is tested.
for _k in list(os.environ):
    if _k.startswith("VSGPU_") and _k != "VSGPU_BUILD_DIR" and not _k.startswith("VSGPU_TEST_"):
        del os.environ[_k]

from osgeo import gdal, ogr  # noqa: E402  (after GDAL_DRIVER_PATH is set)

gdal.AllRegister()
ogr.RegisterAll()

import vsgpu_util  # noqa: E402

VSGPU_DRIVER = gdal.GetDriverByName("VSGPU")


def pytest_sessionstart(session):
    if VSGPU_DRIVER is None:
        msg = (
            "VSGPU driver is not registered: %s not found or not loadable. "
            "Searched: %s. Build the plugin and set GDAL_DRIVER_PATH or "
            "VSGPU_BUILD_DIR." % (PLUGIN_NAME, ", ".join(_plugin_dir_candidates()))
        )
        if PLUGIN_DIR:
            msg += " (found %s/%s, but GDAL did not register it: run " \
                   "'GDAL_DRIVER_PATH=%s ogrinfo --formats' to see why)" % (
                       PLUGIN_DIR, PLUGIN_NAME, PLUGIN_DIR)
        pytest.exit(msg, returncode=3)


def pytest_report_header(config):
    return "VSGPU plugin: %s; GDAL %s; GPU pipeline cross-checks on the %s backend" % (
        os.path.join(PLUGIN_DIR, PLUGIN_NAME) if PLUGIN_DIR else "NOT FOUND",
        gdal.__version__, vsgpu_util.TEST_GPU_BACKEND,
    )


def pytest_terminal_summary(terminalreporter):
    c = vsgpu_util.CROSS_CHECKS
    terminalreporter.write_line(
        "GPU pipeline cross-checks (%s backend): %s" % (
            vsgpu_util.TEST_GPU_BACKEND,
            ", ".join("%s %d" % kv for kv in sorted(c.items())) or "none"))


###############################################################################
# Paths


@pytest.fixture(scope="session")
def repo_root():
    return REPO_ROOT


@pytest.fixture(scope="session")
def data_dir():
    """data/ of the repository: real datasets (see data/README.md)."""
    return REPO_ROOT / "data"


@pytest.fixture(scope="session")
def autotest_data_dir():
    return REPO_ROOT / "autotest" / "data"


@pytest.fixture(scope="session")
def counties_gpkg(data_dir):
    return str(data_dir / "us_atlas_counties_10m.gpkg")


@pytest.fixture(scope="session")
def nc_gpkg(data_dir):
    return str(data_dir / "nc.gpkg")


@pytest.fixture(scope="session")
def nybb_gpkg(data_dir):
    return str(data_dir / "nybb.gpkg")


@pytest.fixture(scope="session")
def spdata_gpkg(data_dir):
    return str(data_dir / "r_spdata.gpkg")


@pytest.fixture()
def vsimem_dir():
    """A fresh /vsimem/ folder, removed after the test."""
    path = "/vsimem/vsgpu_%s" % uuid.uuid4().hex
    gdal.Mkdir(path, 0o755)
    yield path
    vsgpu_util.rm_vsimem(path)


###############################################################################
# Running things


@pytest.fixture(scope="session")
def plugin_dir():
    return PLUGIN_DIR


@pytest.fixture()
def run_cli():
    """Runs ogr2ogr/ogrinfo as a user types them, with the plugin found.

    run_cli(["ogrinfo", ...], config={"VSGPU_NUM_THREADS": "1"}, env={...})
    returns a CompletedProcess with text stdout/stderr."""

    def _run(args, config=None, env=None, timeout=300):
        return vsgpu_util.run_cli(args, plugin_dir=PLUGIN_DIR, config=config,
                                  env=env, timeout=timeout)

    return _run


@pytest.fixture()
def error_collector():
    """Context manager collecting GDAL errors as (class, number, message)."""
    return vsgpu_util.ErrorCollector


@pytest.fixture()
def config_options():
    """Sets GDAL configuration options for the test: cfg({'K': 'V'})."""
    saved = {}

    def _set(options):
        for k, v in options.items():
            if k not in saved:
                saved[k] = gdal.GetConfigOption(k)
            gdal.SetConfigOption(k, v)

    yield _set
    for k, v in saved.items():
        gdal.SetConfigOption(k, v)


@pytest.fixture(autouse=True)
def _no_leftover_vsgpu_config():
    """Tests that set VSGPU_* configuration options must reset them."""
    yield
    leftovers = [k for k in vsgpu_util.VSGPU_CONFIG_KEYS if gdal.GetConfigOption(k) is not None]
    for k in leftovers:
        gdal.SetConfigOption(k, None)
    assert not leftovers, "test left configuration options set: %s" % leftovers


@pytest.fixture()
def canon():
    """The canonicaliser: normalised geometries, area of symmetric difference."""
    return vsgpu_util.Canon


@pytest.fixture(scope="session")
def vsgpu_driver_registered():
    assert gdal.GetDriverByName("VSGPU") is not None
    return True
