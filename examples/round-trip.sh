#!/usr/bin/env bash
# An outside planner's round trip, per model given: export subgraph 0's rw buffers, solve them with
# greedy_planner.py (Python 3, standard library only), hand the solution to TFLite, and run it beside the
# native plan. Fails unless every output is identical byte for byte. Run from the repository root after
# mvn package (TFLITE_ARENA_JAR names another jar).
set -euo pipefail
jar="${TFLITE_ARENA_JAR:-target/tflite-arena.jar}"
here="$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for model in "$@"; do
  name="$(basename "$model" .tflite)"
  java -jar "$jar" plan "$model" --export-buffers "$work/$name.csv"
  python3 "$here/greedy_planner.py" "$work/$name.csv" "$work/$name.solved.csv"
  java -jar "$jar" run "$model" --plan "$work/$name.solved.csv" --quiet
done
