#!/usr/bin/env bash
# Packs, on this Debian bookworm machine, a Python 3.11 runtime that runs the
# pytest autotest suite (autotest/pyscripts) on the GPU host, into
# .device/py-rt.tar.xz (or the path given as the first argument).
#
# Why: the GPU host (Ubuntu 24.04, Python 3.12, no GDAL, no network) gets
# GDAL 3.6 from the GDAL runtime bundle (.device/gdal-rt.tar.xz, made by
# ../shared/tools/gdal-runtime-bundle), but its Python 3.12 cannot load
# bookworm's osgeo, which is built for 3.11. So this carries bookworm's own
# python3.11 (libpython is linked statically into it), the parts of its
# standard library the suite and pytest use, osgeo, pytest and its
# dependencies, optionally numpy (for osgeo.gdal_array and Arrow-to-NumPy),
# and every shared library these load that neither the GDAL bundle nor the
# host's C/C++ runtime provides.
#
#   scripts/make-py-runtime.sh [--no-numpy] [OUT.tar.xz]
#   GDAL_BUNDLE=path/to/gdal-rt.tar.xz   libraries it holds are left out
#                                        (default .device/gdal-rt.tar.xz)
#
# On the GPU host (both bundles unpacked side by side):
#   mkdir -p /opt/gdal-rt /opt/py-rt
#   tar -xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
#   tar -xJf .device/py-rt.tar.xz   -C /opt/py-rt
#   . /opt/gdal-rt/env.sh; . /opt/py-rt/env.sh
#   python3 -m pytest -q -p no:cacheprovider autotest/pyscripts
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
numpy=1
if [ "${1:-}" = "--no-numpy" ]; then numpy=0; shift; fi
out=${1:-$here/.device/py-rt.tar.xz}
gdal_bundle=${GDAL_BUNDLE:-$here/.device/gdal-rt.tar.xz}
py=/usr/bin/python3.11
stdlib=/usr/lib/python3.11
dist=/usr/lib/python3/dist-packages

for f in "$py" "$stdlib/os.py" "$dist/osgeo/__init__.py" "$dist/pytest/__init__.py"; do
  [ -e "$f" ] || { echo "missing $f: apt-get install python3.11 python3-gdal python3-pytest" >&2; exit 1; }
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib/python3/dist-packages"

# The interpreter. Its prefix comes from PYTHONHOME (env.sh), so the
# layout below mirrors /usr: lib/python3.11 and lib/python3/dist-packages,
# which Debian's site.py adds to sys.path relative to the prefix.
cp -L "$py" "$stage/bin/python3.11"
ln -s python3.11 "$stage/bin/python3"

# The standard library, less what neither pytest nor the suite imports:
# the test suite, GUI, packaging and 2to3 tools, the static libpython and
# build files (config-*), help topics, Debian's hooks, and bytecode (Python
# writes it on first import; carrying it would double the size).
tar -C /usr/lib -cf - \
    --exclude='__pycache__' --exclude='*.pyc' \
    --exclude='python3.11/config-3.11-*' --exclude='python3.11/test' \
    --exclude='python3.11/idlelib' --exclude='python3.11/tkinter' \
    --exclude='python3.11/turtledemo' --exclude='python3.11/turtle.py' \
    --exclude='python3.11/ensurepip' --exclude='python3.11/lib2to3' \
    --exclude='python3.11/distutils' --exclude='python3.11/venv' \
    --exclude='python3.11/pydoc_data' --exclude='python3.11/curses' \
    --exclude='python3.11/dbm' --exclude='python3.11/__phello__' \
    --exclude='python3.11/dist-packages' --exclude='python3.11/site-packages' \
    --exclude='python3.11/sitecustomize.py' --exclude='python3.11/EXTERNALLY-MANAGED' \
    --exclude='python3.11/*/tests' --exclude='python3.11/*/test' \
    python3.11 | tar -C "$stage/lib" -xf -
# Extension modules: drop CPython's own test modules and those for
# terminals, sound, GUI, NIS and old databases (they pull in X11, Tcl/Tk,
# ncurses, Berkeley DB and libnsl, which the host may lack).
(cd "$stage/lib/python3.11/lib-dynload" && rm -f \
    _test*.so _ctypes_test.*.so _xx*.so xxlimited*.so _tkinter.*.so \
    _curses*.so readline.*.so _dbm.*.so nis.*.so ossaudiodev.*.so \
    audioop.*.so _crypt.*.so)
# The symlinked copy of the sysconfig data names the real one; keep a file.
rm -f "$stage/lib/python3.11/_sysconfigdata__linux_x86_64-linux-gnu.py"
cp "$stdlib/_sysconfigdata__x86_64-linux-gnu.py" \
   "$stage/lib/python3.11/_sysconfigdata__linux_x86_64-linux-gnu.py"

# osgeo, pytest 7 and what it needs on 3.11 (attrs, iniconfig, packaging,
# pluggy; py.py is pytest's shim for the retired `py` package).
pkgs="osgeo _pytest pytest pytest-*.dist-info pluggy pluggy-*info iniconfig
      iniconfig-*info packaging packaging-*.dist-info attr attrs attrs-*.dist-info py.py"
[ "$numpy" = 1 ] && pkgs="$pkgs numpy numpy-*info"
# shellcheck disable=SC2086  # the globs are meant
(cd "$dist" && tar -cf - --exclude='__pycache__' --exclude='*.pyc' \
    --exclude='numpy/*/tests' --exclude='numpy/tests' --exclude='numpy/f2py' \
    --exclude='numpy/distutils' --exclude='numpy/doc' --exclude='numpy/_pyinstaller' \
    --exclude='numpy/typing/tests' --exclude='*.pyi' --exclude='numpy/core/include' \
    --exclude='numpy/random/lib' --exclude='numpy/core/lib' \
    $pkgs) | tar -C "$stage/lib/python3/dist-packages" -xf -

# Shared libraries: everything the interpreter and the extension modules
# load, minus the C and C++ runtimes the host has (the same rule as the
# GDAL bundle) and minus what the GDAL bundle already carries.
in_gdal_bundle=""
if [ -f "$gdal_bundle" ]; then
  in_gdal_bundle=$(tar -tJf "$gdal_bundle" | sed -n 's|^\./lib/\([^/]*\)$|\1|p')
else
  echo "note: $gdal_bundle not found; keeping every library" >&2
fi
mkdir -p "$stage/lib/so"
find "$stage/bin/python3.11" "$stage/lib" -type f \( -name '*.so*' -o -name python3.11 \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
  while read -r l; do
    b=$(basename "$l")
    if printf '%s\n' "$in_gdal_bundle" | grep -qxF "$b"; then continue; fi
    case "$l" in "$stage"/*) continue ;; esac
    cp -L "$l" "$stage/lib/so/"
  done
strip --strip-unneeded "$stage"/lib/so/*.so* 2>/dev/null || true
find "$stage/lib/python3" -name '*.so' -exec strip --strip-unneeded {} + 2>/dev/null || true

cat > "$stage/env.sh" <<'ENV'
# source me after the GDAL bundle's env.sh: . /opt/py-rt/env.sh
# (PY_RT=/elsewhere if unpacked elsewhere). bookworm's Python 3.11 with
# osgeo, pytest (and numpy); it must not see the host's own Python packages.
PY_RT=${PY_RT:-/opt/py-rt}
export PATH="$PY_RT/bin:$PATH"
export LD_LIBRARY_PATH="$PY_RT/lib/so${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONHOME="$PY_RT"
export PYTHONPATH="$PY_RT/lib/python3/dist-packages"
export PYTHONNOUSERSITE=1
ENV

mkdir -p "$(dirname "$out")"
tar -C "$stage" -cf - . | xz -9e -T1 > "$out"
echo "libraries added: $(find "$stage/lib/so" -type f -printf '%f ')"
echo "unpacked: $(du -sh "$stage" | cut -f1)"
echo "$out: $(du -b "$out" | awk '{printf "%.1f MiB (%d bytes)", $1/1048576, $1}')"
