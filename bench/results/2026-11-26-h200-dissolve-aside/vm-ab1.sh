#!/bin/bash
# one thread, CPU engine: base (fe12fe5) against new (5ab07e1), interleaved, 2 runs
declare -A SQL=([by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st" [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile")
for wl in by_state nation; do for r in 1 2; do for b in base new; do
  dp=/work/main/build/gdalplugins; [ $b = base ] && dp=/tmp/wt-base/build/gdalplugins
  rm -f /tmp/ab-$b.gpkg; s=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG /tmp/ab-$b.gpkg VSGPU:/tmp/wl2m/tiled_counties_5x5.gpkg -dialect VSGPU -sql "${SQL[$wl]}" --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS 1 --config VSGPU_PROFILE /tmp/ab-$wl-$b-$r.json 2>/dev/null
  e=$(date +%s.%N)
  /usr/bin/python3 -c "
import json,sys
t=json.load(open('/tmp/ab-$wl-$b-$r.json'))
st={s['stage']:s for s in t['stages']}
g=lambda k: st[k]['elapsed_s'] if k in st else 0
print('$wl $b run $r wall %.2f  aside_probes %.3f group_union %.3f merge_aside %.3f (groups %d) sum %.3f' % ($e-$s, g('aside_probes'), g('group_union'), g('merge_aside'), st['merge_aside']['rows_in'] if 'merge_aside' in st else 0, g('aside_probes')+g('group_union')+g('merge_aside')))"
done; done; /usr/bin/python3 /work/main/bench/tools/compare_gpkg.py /tmp/ab-new.gpkg /tmp/ab-base.gpkg; done
