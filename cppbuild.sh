#!/usr/bin/env bash
# Builds native/ (the project's own native layer, libjnitflitearena.so) for each PLATFORM, as every
# javacpp-presets module's cppbuild.sh does for its library:
#
#   cppbuild.sh [PLATFORM...]     linux-x86_64, linux-arm64; default: the build host's platform
#
# linux-x86_64 builds with the host's g++ (x86_64-linux-gnu-g++ on an ARM64 host), linux-arm64 with Debian's
# aarch64 cross compiler (g++-aarch64-linux-gnu; the host's g++ on an ARM64 host). Maven runs it in the
# runtime module's build, after it has unpacked what the build compiles and links against into
# NATIVE_BUILD (default: target/tflite-arena, the runtime module's build folder):
#   NATIVE_BUILD/native/tensorflow-lite.aar   TFLite's Android AAR, for its C headers
#   NATIVE_BUILD/native/presets    the presets' libjnitensorflowlite.so of each platform, from their jars
# and the library goes to NATIVE_BUILD/classes/dev/tflitearena/nativelayer/PLATFORM/, where JavaCPP's Loader
# finds it and from where the classifier jar (tflite-arena-VERSION-PLATFORM.jar) takes it.
set -euo pipefail
cd "$(dirname "$0")"

build="${NATIVE_BUILD:-target/tflite-arena}"
headers="$build/native/headers"
[[ $# -gt 0 ]] || case "$(uname -m)" in
  x86_64) set -- linux-x86_64 ;;
  aarch64) set -- linux-arm64 ;;
  *) echo "cppbuild.sh: no platform for $(uname -m); name one: linux-x86_64 or linux-arm64" >&2; exit 2 ;;
esac
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
[[ -f "$java_home/include/jni.h" ]] || { echo "cppbuild.sh: no jni.h under $java_home/include: set JAVA_HOME to a JDK" >&2; exit 2; }
aar="$build/native/tensorflow-lite.aar"
if [[ ! -f "$aar" ]]; then
  echo "cppbuild.sh: no $aar: Maven copies it there (mvn -pl src/runtime -am package)" >&2
  exit 2
fi
if [[ ! -f "$headers/tensorflow/lite/core/c/common.h" || "$aar" -nt "$headers" ]]; then
  rm -rf "$headers"
  (cd "$build/native" && "$java_home/bin/jar" xf tensorflow-lite.aar headers)
  touch "$headers"
fi

for platform in "$@"; do
  case "$platform:$(uname -m)" in
    linux-x86_64:x86_64 | linux-arm64:aarch64) cxx=g++ ;;
    linux-x86_64:*) cxx=x86_64-linux-gnu-g++ ;;
    linux-arm64:*) cxx=aarch64-linux-gnu-g++ ;;
    *) echo "cppbuild.sh: unknown platform '$platform': linux-x86_64 or linux-arm64" >&2; exit 2 ;;
  esac
  command -v "$cxx" >/dev/null || { echo "cppbuild.sh: $platform needs $cxx (Debian: apt-get install g++-${cxx%-g++})" >&2; exit 2; }
  presets="$build/native/presets/org/bytedeco/tensorflowlite/$platform"
  [[ -f "$presets/libjnitensorflowlite.so" ]] || { echo "cppbuild.sh: no $presets/libjnitensorflowlite.so: Maven unpacks it for -Djavacpp.platform=$platform" >&2; exit 2; }
  out="$build/classes/dev/tflitearena/nativelayer/$platform"
  mkdir -p "$out"
  # The presets' library has no SONAME, so the link records it as libjnitensorflowlite.so and $ORIGIN finds
  # it: NativeLayer links the copy JavaCPP has loaded beside this library before loading it, so both are one.
  "$cxx" -std=c++17 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
    -I"$headers" -I"$java_home/include" -I"$java_home/include/linux" \
    native/*.cc -o "$out/libjnitflitearena.so" \
    -L"$presets" -l:libjnitensorflowlite.so -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined
  echo "cppbuild.sh: $out/libjnitflitearena.so"
done
