#!/usr/bin/env bash
# Installs yt-dlp for the caption provider (lib/captions/ytdlp) into .venv/, pinned.
# Idempotent: does nothing when a working yt-dlp is already on PATH or in .venv/bin.
# Usage: bash scripts/install-yt-dlp.sh   (from anywhere; works on the repo it lives in)
set -euo pipefail

YT_DLP_VERSION="2026.8.19"

cd "$(dirname "$0")/.."
venv_bin=".venv/bin/yt-dlp"

if [ -x "$venv_bin" ] && version="$("$venv_bin" --version 2>/dev/null)"; then
  echo "yt-dlp $version (.venv/bin/yt-dlp)"
  exit 0
fi
if command -v yt-dlp >/dev/null 2>&1 && version="$(yt-dlp --version 2>/dev/null)"; then
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
echo "install-yt-dlp: installing yt-dlp==$YT_DLP_VERSION into .venv" >&2
.venv/bin/python -m pip install --quiet --disable-pip-version-check "yt-dlp==$YT_DLP_VERSION"

version="$("$venv_bin" --version)"
echo "yt-dlp $version (.venv/bin/yt-dlp)"
