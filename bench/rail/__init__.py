"""The benchmark rail: VSGPU's engines side by side with GDAL's own ways of
doing the same job, on generated workloads at several scales, with every
answer measured and compared while it is timed.

Only the standard library (plus numpy/matplotlib for the plots, when they
import): the GPU host has GDAL's command-line tools but no Python bindings,
so every engine runs as a child process and every output is measured by the
C tool vsgbench_measure.

Modules, one concern each:
    manifest  the workloads: generated or read, normalised for the engines
    gpkg      what a GeoPackage holds (layers, columns, R-tree), via sqlite3
    machine   the machine (CPU, GPU, driver, GDAL) and the bandwidth table
    engines   the engines: which operations each runs, and its command line
    runner    child processes: timeout, wall time, peak memory; repeats, budget
    trace     the VSGPU_PROFILE stage trace and the GPU data-movement floor
    measure   vsgbench_measure, the comparison against the reference, the check
    report    the markdown table
    plots     PNG plots (skipped when matplotlib is missing)
"""
