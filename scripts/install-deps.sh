#!/usr/bin/env bash
# Installs Kiln's build and test dependencies from Debian 12 packages.
# Idempotent: packages already present are skipped. As root it runs apt-get;
# otherwise it prints the exact command to run and exits non-zero.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config ccache
  llvm-19-dev libzstd-dev
  libopenblas-openmp-dev libdnnl-dev nlohmann-json3-dev zlib1g-dev
  libgtest-dev libbenchmark-dev
  libglfw3-dev libimgui-dev libstb-dev xvfb
  python3                 # runs the differential and codegen CLI tests
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "kiln: missing packages: ${missing[*]}" >&2
  echo "kiln: run as root:  apt-get update && $cmd" >&2
  exit 1
fi

echo "kiln: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd
