#!/usr/bin/env bash
# Installs yt-dlp (captions from X, TikTok, …; audio of caption-less videos) into .venv/, pinned, with
# YouTube's challenge solver (yt-dlp-ejs, from `yt-dlp[default]`), and fills deno's cache with the npm
# packages yt-dlp's own solver script imports, for when the package index has no yt-dlp-ejs.
# Deno itself is the npm package `deno` (lib/captions/ytdlp/js-runtime.ts).
#
# Usage: bash scripts/install-yt-dlp.sh            install once (idempotent; nothing when all is in place)
#        bash scripts/install-yt-dlp.sh --update   upgrade yt-dlp and the solver to the newest the index has
#                                                  (npm run ytdlp:update; YouTube breaks often, no release of ours needed)
set -euo pipefail

YT_DLP_VERSION="2026.8.19"

cd "$(dirname "$0")/.."
update=false
[ "${1:-}" = "--update" ] && update=true
venv_bin=".venv/bin/yt-dlp"
pip() { .venv/bin/python -m pip --disable-pip-version-check "$@"; }

deno_cmd=""
if [ -x node_modules/.bin/deno ]; then deno_cmd="node_modules/.bin/deno"; elif command -v deno >/dev/null 2>&1; then deno_cmd="deno"; fi

# yt-dlp's deno solver script when no yt-dlp-ejs is installed: it imports npm:meriyah and npm:astring,
# which yt-dlp lets deno read only from its cache (it never fetches solver code: --no-remote-components).
solver_lib() {
  .venv/bin/python - <<'PY' 2>/dev/null
import os
import yt_dlp.extractor.youtube.jsc._builtin.vendor as vendor
print(os.path.join(os.path.dirname(vendor.__file__), "yt.solver.deno.lib.js"))
PY
}
has_ejs() { .venv/bin/python -c 'import yt_dlp_ejs' >/dev/null 2>&1; }
deno_cache_warm() {
  local lib
  [ -n "$deno_cmd" ] && lib="$(solver_lib)" && [ -f "$lib" ] &&
    DENO_DIR=.venv/deno DENO_NO_UPDATE_CHECK=1 "$deno_cmd" run --cached-only --no-remote --no-prompt --no-config --no-lock --node-modules-dir=none "$lib" >/dev/null 2>&1
}
warm_deno_cache() {
  local lib
  if [ -z "$deno_cmd" ]; then
    echo "install-yt-dlp: no deno (npm package 'deno' not installed, none on PATH): YouTube audio downloads will fail" >&2
    return 0
  fi
  lib="$(solver_lib)" || true
  if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "install-yt-dlp: this yt-dlp has no deno solver script; YouTube needs yt-dlp-ejs" >&2
    return 0
  fi
  # From the npm registry (NPM_CONFIG_REGISTRY is honoured), the only place these machines reach.
  if DENO_DIR=.venv/deno DENO_NO_UPDATE_CHECK=1 "$deno_cmd" cache --quiet --no-config --no-lock --node-modules-dir=none "$lib" >&2; then
    echo "install-yt-dlp: YouTube challenge solver: yt-dlp's deno script, npm packages cached in .venv/deno" >&2
  else
    echo "install-yt-dlp: could not cache the solver's npm packages for deno: YouTube audio downloads will fail" >&2
  fi
}
ensure_solver() {
  if has_ejs; then
    echo "install-yt-dlp: YouTube challenge solver: yt-dlp-ejs $(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("yt-dlp-ejs"))')" >&2
    return 0
  fi
  deno_cache_warm && return 0
  warm_deno_cache
}

# Someone else's yt-dlp on PATH (no .venv): use it as it is; the app says in /health what it lacks.
if [ ! -x "$venv_bin" ] && command -v yt-dlp >/dev/null 2>&1 && version="$(yt-dlp --version 2>/dev/null)"; then
  echo "yt-dlp $version ($(command -v yt-dlp))"
  exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
  echo "install-yt-dlp: python3 is required (apt-get install -y python3 python3-venv)" >&2
  exit 1
fi
# Reuse a working .venv; a half-made one (interrupted install, moved interpreter) is rebuilt.
if ! .venv/bin/python -c 'import sys' >/dev/null 2>&1; then
  echo "install-yt-dlp: creating .venv" >&2
  rm -rf .venv
  python3 -m venv .venv
fi

if $update; then
  echo "install-yt-dlp: upgrading yt-dlp and yt-dlp-ejs in .venv" >&2
  pip install --quiet --upgrade "yt-dlp[default]" || pip install --quiet --upgrade yt-dlp yt-dlp-ejs || pip install --quiet --upgrade yt-dlp
  # A new yt-dlp may import other versions of the solver's npm packages.
  has_ejs || warm_deno_cache
elif ! { [ -x "$venv_bin" ] && "$venv_bin" --version >/dev/null 2>&1; }; then
  echo "install-yt-dlp: installing yt-dlp==$YT_DLP_VERSION into .venv" >&2
  # yt-dlp[default] brings yt-dlp-ejs; where the package index lacks it (or an extra), yt-dlp alone.
  pip install --quiet "yt-dlp[default]==$YT_DLP_VERSION" 2>/dev/null || pip install --quiet "yt-dlp==$YT_DLP_VERSION"
  has_ejs || pip install --quiet yt-dlp-ejs 2>/dev/null || true
  ensure_solver
else
  ensure_solver
fi

version="$("$venv_bin" --version)"
echo "yt-dlp $version (.venv/bin/yt-dlp)"
