#!/usr/bin/env bash
# Builds the Python package `xpbd` (this folder) into a virtual environment and runs its
# pytest suite. Idempotent; for a fresh Debian machine as root (CI) as for a developer.
#
#   bash python/test.sh            # build (dev profile, the workspace's target/) + pytest
#   bash python/test.sh -k ckpt    # extra arguments go to pytest
#
# The package is maturin's mixed layout: python/xpbd/ (pure Python, e.g. xpbd.usd) around the
# extension module xpbd._xpbd; `maturin develop` installs it editable (the extension is
# copied into python/xpbd/, ignored by git). pytest also runs python/examples/ (small sizes).
#
# The venv is target/python-venv (XPBD_PY_VENV overrides it). The extension is built by
# `maturin develop` into the workspace's target/ folder with the dev profile (optimised, see
# the workspace Cargo.toml), so it reuses what `cargo test --workspace` already built.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV="${XPBD_PY_VENV:-$ROOT/target/python-venv}"
PY="${PYTHON:-python3}"

# The venv module (Debian splits it off) and, for `cargo test -p xpbd-py`, libpython.
if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-venv python3-dev >/dev/null
  PY=python3
fi

if ! [ -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
# usd-core (Pixar's USD, `pxr`): the optional dependency of xpbd.usd, which tests/test_usd.py
# and the examples read stages with; XPBD_REQUIRE_USD=1 makes those tests fail, not skip,
# without it.
if ! python -c 'import maturin, numpy, pytest, pxr' >/dev/null 2>&1; then
  python -m pip install -q --disable-pip-version-check 'maturin>=1.9.4,<2' numpy pytest \
    'usd-core>=24'
fi
export XPBD_REQUIRE_USD="${XPBD_REQUIRE_USD:-1}"

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
start=$(date +%s)
maturin develop --manifest-path python/Cargo.toml --locked
echo "python/test.sh: built xpbd in $(( $(date +%s) - start )) s"

cd python
python -m pytest -q "$@"
