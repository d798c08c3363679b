#!/usr/bin/env bash
# tflite-arena on linux-arm64, with the presets' linux-arm64 natives.
#
#   tests/arm64/run.sh compare            the compare cross-check on every real model (what .ci/run runs)
#   tests/arm64/run.sh bench [OPTIONS]    the benchmarks with bench's OPTIONS (default: --quick --forks 0;
#                                         under qemu-user keep --forks 0, as a forked JVM cannot start there)
#   tests/arm64/run.sh                    both
#
# On an x86-64 machine it runs under qemu-user: it installs qemu-user-static, unpacks Debian's arm64 JRE into
# target/arm64/sysroot (apt-get download + dpkg -x, nothing is installed for arm64) and fetches the linux-arm64
# classifier jars. Emulated timings are no performance figures: they only prove the benchmarks run. On an
# ARM64 machine the script runs the host's own java instead, and `bench` without --quick gives the real table.
# Needs the runnable jars: mvn -B -q package -DskipTests.
set -euo pipefail
cd "$(dirname "$0")/../.."

part="${1:-all}"
[[ $# -gt 0 ]] && shift
case "$part" in compare|bench|all) ;; *) echo "usage: $0 [compare|bench [BENCH OPTIONS]]" >&2; exit 2 ;; esac

jar=target/tflite-arena.jar
[[ -f "$jar" ]] || { echo "arm64: $jar is missing: mvn -B -q package -DskipTests" >&2; exit 2; }
work=target/arm64

if [[ "$(uname -m)" == aarch64 ]]; then
  java=(java)
  libs=""
else
  sysroot="$PWD/$work/sysroot"
  jre="$sysroot/usr/lib/jvm/java-17-openjdk-arm64"
  if [[ ! -x "$jre/bin/java" ]]; then
    export DEBIAN_FRONTEND=noninteractive
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    apt-get update -q
    command -v qemu-aarch64-static >/dev/null || apt-get install -y -q qemu-user-static
    # The JRE and the libraries it and TFLite's natives load; its other dependencies (fonts, sound, cups)
    # serve AWT, which a headless run never loads.
    debs="$work/debs"
    rm -rf "$debs" "$sysroot" && mkdir -p "$debs" "$sysroot"
    (cd "$debs" && apt-get download -q openjdk-17-jre-headless:arm64 libc6:arm64 libgcc-s1:arm64 \
      libstdc++6:arm64 zlib1g:arm64)
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$sysroot"; done
    # The JRE's configuration links point at /etc, which is the host's x86-64 one: point them into the sysroot.
    find "$sysroot" -type l -lname '/*' | while read -r link; do
      target="$sysroot$(readlink "$link")"
      if [[ -e "$target" ]]; then ln -sfn "$target" "$link"; fi
    done
  fi
  # The runtime module's natives as linux-arm64: the presets' (the core, built on the way, has none) and the
  # native layer, built from this checkout's native/ with the aarch64 cross compiler (its classifier jar).
  command -v aarch64-linux-gnu-g++ >/dev/null || apt-get install -y -q g++-aarch64-linux-gnu
  rm -f "$work"/lib/tflite-arena-*-linux-arm64.jar
  mvn -B -q -pl src/runtime -am package org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DskipTests -DskipModelFetch -Djavacpp.platform=linux-arm64 -DincludeClassifiers=linux-arm64 \
    -DoutputDirectory="$PWD/$work/lib"
  cp target/tflite-arena/tflite-arena-*-linux-arm64.jar "$work/lib/"
  export QEMU_LD_PREFIX="$sysroot"
  export LD_LIBRARY_PATH="$sysroot/lib/aarch64-linux-gnu:$sysroot/usr/lib/aarch64-linux-gnu"
  # C1 alone: under emulation C2's compile time outweighs what it saves in these short runs.
  java=(qemu-aarch64-static "$jre/bin/java" -XX:TieredStopAtLevel=1)
  libs=":$work/lib/*"
fi
classpath="$jar$libs"
# TFLITE_ARENA_IN_PROCESS: the commands run in this JVM, as under qemu-user no child JVM can start.
run() { TFLITE_ARENA_IN_PROCESS=1 "${java[@]}" -cp "$classpath" dev.tflitearena.cli.Main "$@"; }

echo "arm64: $(run --version) on $("${java[@]}" -XshowSettings:properties -version 2>&1 | sed -n 's/ *os.arch = //p')"
# The native layer must be the linux-arm64 build, in use: this fails (exit 1) with the reason otherwise.
echo "arm64: $(TFLITE_ARENA_IN_PROCESS=1 "${java[@]}" -cp "$classpath" dev.tflitearena.nativelayer.NativeLayer)"

if [[ "$part" == compare || "$part" == all ]]; then
  passed=0 skipped=0
  while read -r package version file; do
    [[ -z "$package" || "$package" == \#* ]] && continue
    for resolver in "" --xnnpack; do
      status=0
      out="$(run compare "tests/models/$file" $resolver 2>&1 | tail -n 1)" || status=$?
      what="arm64 compare $file${resolver:+ $resolver}"
      if [[ $status == 0 ]]; then
        passed=$((passed + 1)); echo "$what: $out"
      elif [[ $status == 2 && "$out" == *"needs the custom op"* ]]; then
        # The two selfie_segmentation models need a custom op no builtin resolver has, as on x86-64.
        skipped=$((skipped + 1)); echo "$what: skipped, ${out#*: }"
      else
        echo "$what: FAILED (exit $status) $out" >&2; exit 1
      fi
    done
  done < tests/models.txt
  echo "arm64: $passed passed, 0 failed, $skipped skipped"
fi

if [[ "$part" == bench || "$part" == all ]]; then
  # Without binfmt_misc a forked JVM cannot start under qemu-user, so JMH runs in this JVM, and so does the
  # benchmarks' jar itself, which the command line's bench would start in a JVM of its own.
  bench_jar=target/tflite-arena-bench.jar
  [[ -f "$bench_jar" ]] || { echo "arm64: $bench_jar is missing: mvn -B -q package -DskipTests" >&2; exit 2; }
  [[ $# -gt 0 ]] || set -- --quick --forks 0 --out "$work/bench"
  "${java[@]}" -cp "$bench_jar$libs" dev.tflitearena.bench.BenchCommand "$@"
fi
