#!/usr/bin/env bash
# Installs what building and testing VSGPU needs on Debian or Ubuntu: apt-get
# when run as root, otherwise prints the exact command and stops.
#   install-deps.sh        the build and the test suite
#   install-deps.sh fuzz   also clang and its libFuzzer runtime (scripts/fuzz.sh)
set -euo pipefail

packages=(cmake make g++ gcc pkg-config gdal-bin libgdal-dev libgeos-dev
          python3 python3-gdal python3-pytest python3-numpy python3-scipy python3-matplotlib)
if [ "${1:-}" = fuzz ]; then
  packages+=(clang libclang-rt-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "VSGPU needs: ${missing[*]} (GDAL >= 3.6 with development files, GEOS >= 3.10, cmake >= 3.25, pytest)" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
