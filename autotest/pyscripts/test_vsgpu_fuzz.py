"""Untrusted statements through the whole driver, in process (as QGIS runs
it): seeded mutations of valid statements and random token soups go through
ExecuteSQL on a real dataset. Whatever the text, the host process survives,
a statement either yields a result layer that can be read to the end or
fails with a CE_Failure message, and nothing is left half-open (the result
is released). Under scripts/test-sanitizers.sh the same test runs with ASan
and UBSan, which turn any memory error into a failure.
"""

import random

import pytest
from osgeo import gdal

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

SEEDS = [
    "SELECT * FROM ST_Intersection(NY8_utm18, NY8_bna_utm18)",
    "SELECT * FROM ST_Clip(NY8_bna_utm18, NY8_utm18, 'PROMOTE_TO_MULTI=YES')",
    "SELECT * FROM ST_ClipByRect(NY8_utm18, 400000, 4700000, 450000, 4750000)",
    "SELECT a.AREANAME, b.AREAKEY, ST_Intersection(a.geom, b.geom) AS geom "
    "FROM NY8_utm18 a JOIN NY8_bna_utm18 b ON ST_Intersects(a.geom, b.geom) "
    "WHERE a.POP8 > 1000 AND b.AREAKEY LIKE '36%'",
    "SELECT substr(AREAKEY, 1, 5) AS county, COUNT(*) AS n, ST_Union(geom) AS geom "
    "FROM NY8_utm18 WHERE POP8 BETWEEN 10 AND 100000 GROUP BY county",
    "SELECT ST_Union(geom) FROM sids",
]

TOKENS = ["SELECT", "*", "FROM", "ST_Intersection", "ST_Clip", "ST_ClipByRect", "ST_Union",
          "ST_Intersects", "(", ")", ",", "'", "\"", "a", "b", "a.geom", "b.geom", "geom",
          "JOIN", "ON", "WHERE", "GROUP", "BY", "AND", "OR", "NOT", "=", "<>", "1", "-2.5e3",
          "'x'", "NULL", "IS", "IN", "LIKE", "BETWEEN", "AS", "NY8_utm18", "NY8_bna_utm18",
          "sids", "POP8", "AREAKEY", "substr", "COUNT", ";", "--", "/*", "*/", "'/nope'.x",
          "\x00", "é", "\\", "1e999", "0x7f"]


def _mutate(rng, s, n):
    s = list(s)
    for _ in range(n):
        op = rng.randrange(4)
        pos = rng.randrange(len(s) + 1)
        if op == 0 and s:                       # delete a run
            del s[pos:pos + rng.randint(1, 8)]
        elif op == 1:                           # insert a token
            s[pos:pos] = list(" %s " % rng.choice(TOKENS))
        elif op == 2 and s:                     # replace a char
            s[min(pos, len(s) - 1)] = chr(rng.choice([0x27, 0x22, 0x28, 0x29, 0x2c, 0x20, 0x2e,
                                                      rng.randrange(32, 127)]))
        else:                                   # truncate
            s = s[:pos]
    return "".join(s)


def _statements(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        seed = rng.choice(SEEDS)
        if i % 5 == 0:       # valid, only its spelling changed
            out.append("".join(c.lower() if rng.random() < 0.3 else c for c in seed).replace(
                " ", rng.choice([" ", "  ", "\n", "\t"])))
        elif i % 5 == 1:     # random tokens
            out.append(" ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 30))))
        else:                # one to three mutations of a valid statement
            out.append(_mutate(rng, seed, rng.randint(1, 3)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_statements_never_break_the_host(spdata_gpkg, seed):
    ds = vu.open_vsgpu(spdata_gpkg)
    assert ds is not None
    outcomes = {"layer": 0, "failure": 0}
    for sql in _statements(seed, 150):
        sql = sql.replace("\x00", " ")          # C strings end at NUL anyway
        with vu.ErrorCollector() as errs:
            lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
            if lyr is None:
                # No result: there must be a reason the user can read.
                assert errs.failures, "no result and no CE_Failure for %r: %r" % (sql, errs.errors)
                outcomes["failure"] += 1
                continue
            try:
                n = 0
                while lyr.GetNextFeature() is not None and n < 5000:
                    n += 1
                lyr.GetLayerDefn().GetFieldCount()
                lyr.GetMetadata("VSGPU")
            finally:
                ds.ReleaseResultSet(lyr)
            outcomes["layer"] += 1
    # The mutations must exercise both outcomes, or the test proves little.
    assert outcomes["layer"] > 0 and outcomes["failure"] > 0, outcomes
    ds = None
