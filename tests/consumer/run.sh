#!/usr/bin/env bash
# The library as an application gets it. Installs the artifacts with the one command a library user runs (the
# root's modules, tflite-arena-platform among them, for this machine's platform), then builds tests/consumer, a
# separate project that depends on tflite-arena-platform alone, offline against what was installed, with no
# -Djavacpp.platform, prints its dependency tree and runs it:
# a SessionPool served from several threads, every output checked against one session's (ConsumerCheck).
# Fails if the tree or the class path holds JMH, DJL, picocli or an SLF4J binding.
set -euo pipefail
cd "$(dirname "$0")/../.."

case "$(uname -m)" in
  x86_64) platform=linux-x86_64 ;;
  aarch64) platform=linux-arm64 ;;
  *) echo "consumer: no TFLite natives for $(uname -m)" >&2; exit 2 ;;
esac

mvn -B -q install -DskipTests

consumer=(mvn -B -q -f tests/consumer)
# The consumer's build plugins, resolved once online: a fresh machine has none of them before going offline.
"${consumer[@]}" dependency:resolve-plugins
"${consumer[@]}" -o package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt \
  dependency:tree -DoutputFile=target/dependency-tree.txt
echo "consumer: the dependency tree of an application that depends on tflite-arena-platform ($platform):"
cat tests/consumer/target/dependency-tree.txt
if grep -E 'org\.openjdk\.jmh|ai\.djl|info\.picocli|org\.slf4j:slf4j-(nop|simple|jdk14|log4j12|reload4j|jcl)|ch\.qos\.logback|log4j-slf4j' \
    tests/consumer/target/dependency-tree.txt; then
  echo "consumer: FAILED: the tree above holds a benchmark, command-line or logging-binding artifact" >&2
  exit 1
fi

java -cp "tests/consumer/target/classes:$(cat tests/consumer/target/classpath.txt)" \
  dev.tflitearena.example.ConsumerCheck tests/models/face_detection_short_range.tflite
