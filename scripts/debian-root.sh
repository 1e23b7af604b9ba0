#!/usr/bin/env bash
# Debian roots for testing VSGPU against other GDAL versions than the host's:
#   sid     GDAL 3.13, GEOS 3.15, QGIS 3.44 (the newest; QGIS tests run here)
#   trixie  GDAL 3.10 (Debian 13; build and suite only)
#
#   bash scripts/debian-root.sh make  sid|trixie     make the root, or reuse it
#   bash scripts/debian-root.sh test  sid|trixie     build and run the suite in it
#   bash scripts/debian-root.sh shell sid|trixie CMD run CMD in it, in the
#                                                  checkout (bound at /src/<name>)
#
# Roots live in ${VSGPU_ROOTS:-/var/lib/vsgpu-roots}/<suite>, outside the
# clone, so a later run (CI on the same machine) reuses them. They are made
# with Debian's own mmdebstrap from the archive this machine's apt uses. The
# archive is a snapshot whose Release file has expired, so apt runs with
# Acquire::Check-Valid-Until "false". /proc and /dev are mounted only for
# the life of each command in the root.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
roots=${VSGPU_ROOTS:-/var/lib/vsgpu-roots}
action=${1:?usage: debian-root.sh make|test|shell sid|trixie [CMD]}
suite=${2:?usage: debian-root.sh make|test|shell sid|trixie [CMD]}
shift 2
root=$roots/$suite
mirror=${VSGPU_DEBIAN_MIRROR:-http://deb.debian.org/debian}

common=(cmake make g++ gcc pkg-config gdal-bin libgdal-dev libgeos-dev
        python3 python3-gdal python3-pytest python3-numpy python3-scipy
        python3-matplotlib sqlite3)
case "$suite" in
  sid)    packages=("${common[@]}" qgis python3-qgis qgis-providers xauth) ;;
  trixie) packages=("${common[@]}") ;;
  *) echo "debian-root.sh: unknown suite '$suite' (sid or trixie)" >&2; exit 2 ;;
esac

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "debian-root.sh: making and entering a root needs root (chroot, mounts)" >&2
    exit 1
  fi
}

make_root() {
  need_root
  # A stamp written last: a root whose making was cut off is made again.
  if [ -f "$root/.vsgpu-root-ok" ] && cmp -s "$root/.vsgpu-root-ok" <(printf '%s\n' "${packages[@]}"); then
    echo "debian-root: reusing $root"
    return 0
  fi
  command -v mmdebstrap >/dev/null 2>&1 || {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
  }
  rm -rf "$root"
  mkdir -p "$roots"
  local pkgs
  pkgs=$(IFS=,; echo "${packages[*]}")
  echo "debian-root: making $root ($suite) — several minutes"
  mmdebstrap --mode=root --variant=buildd \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --include="$pkgs" "$suite" "$root" "$mirror" >"$roots/$suite.log" 2>&1 || {
      echo "debian-root: mmdebstrap failed; the last lines of $roots/$suite.log:" >&2
      tail -20 "$roots/$suite.log" >&2
      exit 1
    }
  printf '%s\n' "${packages[@]}" >"$root/.vsgpu-root-ok"
  echo "debian-root: made $root"
}

# Each checkout gets its own mount point and build folder in the root, so
# that several checkouts (worktrees) can use one root at the same time.
tag=$(printf '%s' "$here" | tr -c 'A-Za-z0-9\n' '_')
src=/src/$tag

# Runs "$@" inside the root, in the checkout; the mounts (stacked, so that
# concurrent commands do not take each other's away) are taken down however
# the command ends.
in_root() {
  need_root
  [ -f "$root/.vsgpu-root-ok" ] || { echo "debian-root: no root at $root (run: debian-root.sh make $suite)" >&2; exit 1; }
  mkdir -p "$root$src"
  local mounted=()
  cleanup() {
    local m
    for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  }
  trap cleanup EXIT
  mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && mounted+=("$root/dev")
  mount --bind "$here" "$root$src" && mounted+=("$root$src")
  cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  local rc=0
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 CI="${CI:-}" \
    chroot "$root" /bin/bash -c "cd $src && $*" || rc=$?
  cleanup
  trap - EXIT
  return $rc
}

case "$action" in
  make)  make_root ;;
  shell) in_root "$@" ;;
  test)
    make_root
    # The build goes into the root's own /root/build-<tag>, never into the
    # host's build/ (other GDAL, other compiler). -Werror: no warnings.
    # The fault sweeps take two runs of each kind there (the engine's
    # fault paths are swept in full by the main and sanitizer runs).
    in_root "echo \"GDAL \$(gdal-config --version) in $suite\" && \
      VSGPU_TEST_FAULT_SAMPLES=2 \
      VSGPU_BUILD_DIR=/root/build-$tag bash scripts/test.sh -DVSGPU_CUDA=OFF -DVSGPU_WERROR=ON"
    ;;
  *) echo "debian-root.sh: unknown action '$action' (make, test, shell)" >&2; exit 2 ;;
esac
