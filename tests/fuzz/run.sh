#!/usr/bin/env bash
# libFuzzer over the runtime's input layers (tests/fuzz/<name>.cpp: the manifest parser,
# runtime/src/manifest.cpp; mpgen-run's reading of its input, runtime/tools/line_reader.hpp;
# the on-demand kernel cache's reading of an entry, runtime/src/cache.cpp), built with
# clang's address and undefined-behaviour sanitizers into build/fuzz, each run for SECONDS (default 10) from its corpus, tests/fuzz/corpus/<name>
# (read only: what a run adds goes to a temporary folder). A crash, a sanitizer's report, an
# exception other than InputError or a message of more than one line fails it, and leaves the
# input that did it in build/fuzz/<name>-crash-*.
# Usage: tests/fuzz/run.sh [SECONDS] [libFuzzer options, e.g. -runs=10000000]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
shift || true
mkdir -p build/fuzz
found=$(mktemp -d)
trap 'rm -rf "$found"' EXIT
declare -A sources=([manifest]="runtime/src/manifest.cpp runtime/src/values.cpp" [operands]="runtime/src/values.cpp"
                    [cache]="runtime/src/cache.cpp")
names=(manifest operands cache)
for name in "${names[@]}"; do  # compiled side by side (the cores), then run one by one
  # shellcheck disable=SC2086  # the sources are words
  clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I runtime/include -I runtime/src -I runtime/tools -I generator/mpgen/headers -DMPGEN_VERSION='"fuzz"' \
    tests/fuzz/"$name".cpp ${sources[$name]} -lgmp -o build/fuzz/"$name" &
done
for name in "${names[@]}"; do wait -n || { echo "fuzz: a fuzzer did not compile" >&2; exit 1; }; done
for name in "${names[@]}"; do
  mkdir -p "$found/$name"
  build/fuzz/"$name" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/"$name"- "$@" \
    "$found/$name" "tests/fuzz/corpus/$name" 2>"$found/$name.log" ||
    { tail -40 "$found/$name.log"; echo "fuzz: $name failed" >&2; exit 1; }
  echo "fuzz: $name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$found/$name.log" | cut -d' ' -f2) inputs, none failing"
done
