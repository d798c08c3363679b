#!/usr/bin/env bash
# Screenshots an HTML report (HtmlReport's output) or an SVG picture with headless Chromium, to look at a plan
# as a reader sees it, without a desktop.
# Usage: tests/report-screenshot.sh REPORT.html OUT.png [WIDTH,HEIGHT]   (window size, default 1400,2000)
# Needs Debian's chromium package: apt-get install -y chromium
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REPORT.html OUT.png [WIDTH,HEIGHT]" >&2
  exit 2
fi
html=$(realpath -m "$1")
out=$(realpath -m "$2")
size=${3:-1400,2000}
if [ ! -f "$html" ]; then
  echo "$0: no such file: $1" >&2
  exit 2
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "$0: chromium is missing; on Debian: apt-get update && apt-get install -y chromium" >&2
  exit 2
fi

# A fresh profile each time, so that no earlier session's state or lock gets in the way; removed after.
profile=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$profile" "$log"' EXIT
mkdir -p "$(dirname "$out")"
rm -f "$out"
# Chromium can hang on a broken setup rather than fail: give it two minutes. It logs harmless complaints
# about the missing D-Bus on every run, so its log is shown only when no screenshot came out, without those.
status=0
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  --user-data-dir="$profile" --screenshot="$out" --window-size="$size" "file://$html" >"$log" 2>&1 || status=$?
if [ ! -s "$out" ]; then
  grep -v dbus "$log" >&2 || true
  echo "$0: chromium (exit status $status) wrote no screenshot to $out" >&2
  exit 1
fi
echo "$out"
