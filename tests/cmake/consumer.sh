#!/usr/bin/env bash
# Uses mpgen as a user's project does, from an existing build of mpgen (BUILD, default
# build/): installs it, then builds and runs examples/consumer through find_package(mpgen)
# and through add_subdirectory; checks that the generation step runs again when a
# template changes and not otherwise, and that a bad request fails at configure time.
# PYTHON: a python3 with jinja2 (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
python=$(realpath "${PYTHON:-.venv/bin/python}")
work=$build/consumer
rm -rf "$work"
mkdir -p "$work"
fail() { echo "consumer: FAILED: $*"; exit 1; }

cmake --install "$build" --prefix "$work/install" >/dev/null
echo "== find_package(mpgen) after cmake --install"
cmake -S examples/consumer -B "$work/package" -G Ninja -DCMAKE_PREFIX_PATH="$PWD/$work/install" \
      -DPython3_EXECUTABLE="$python" >/dev/null
cmake --build "$work/package"
"$work/package/consumer"

echo "== the generation step runs again only when its inputs change"
log=$(cmake --build "$work/package")
! grep -q "mpgen: generating" <<<"$log" || fail "generated again with nothing changed"
touch "$work/install/share/mpgen/generator/mpgen/templates/size.cuh.j2"
log=$(cmake --build "$work/package")
grep -q "mpgen: generating" <<<"$log" || fail "not generated again after a template changed"

echo "== a bad request fails at configure time with mpgen's message"
for request in "-DBAD_BITS=131 -DBAD_OPS=mull" "-DBAD_BITS=33554432 -DBAD_OPS=add"; do
  if out=$(cmake -S tests/cmake/bad_request -B "$work/bad" -DCMAKE_PREFIX_PATH="$PWD/$work/install" \
             -DPython3_EXECUTABLE="$python" $request 2>&1); then
    fail "configured with $request"
  fi
  grep -q "mpgen: error: --" <<<"$out" || fail "no mpgen message for $request: $out"
  grep "mpgen: error" <<<"$out"
  rm -rf "$work/bad"
done

echo "== add_subdirectory(mpgen)"
# The runtime's built-in modules are the main build's to test: here one size and no preset,
# RNS set, GF field: so that this build does not compile them all a second time.
PYTHONPATH=generator "$python" -m mpgen generate --table --bits 256 --ops add,mul --out "$work/builtin" >/dev/null
cmake -S examples/consumer -B "$work/subdirectory" -G Ninja -DMPGEN_FROM=subdirectory \
      -DMPGEN_GENERATED_DIR="$PWD/$work/builtin" -DMPGEN_RUNTIME_FIELDS= -DMPGEN_RUNTIME_RNS= -DMPGEN_RUNTIME_GF= \
      -DPython3_EXECUTABLE="$python" >/dev/null
cmake --build "$work/subdirectory" --target consumer
"$work/subdirectory/consumer"
echo "consumer: both ways built and ran"
