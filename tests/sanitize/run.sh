#!/usr/bin/env bash
# compute-sanitizer's four tools (memcheck, racecheck, initcheck, synccheck) over the GPU
# code, on a machine with a GPU: the GPU test binaries (tests/cpp, built with
# -DMPGEN_GPU_TESTS=ON: the per-thread tier's embed test, the fields', the RNS digit lanes',
# the GF fields' and their FFT's; MPGEN_TEST_CASES cases each), then mpgen-run on the GPU
# over every kind of kernel the runtime launches: the per-thread tier, fields, RNS, GF and
# its FFT built in (-DMPGEN_RUNTIME_GPU_TABLES=ON), and the group tier compiled on demand
# (its shared-memory exchanges, products by rows and by transform, Newton's division and
# square root, and a group that spans blocks, whose exchanges go through global memory).
# Every run must end with 0 errors within MPGEN_SANITIZE_TIMEOUT seconds (default 900); a
# line a run goes to stdout, each whole report to LOGS. MPGEN_SANITIZE_TOOLS names fewer tools.
# Usage: tests/sanitize/run.sh BUILD_DIR [LOGS]    (LOGS: default BUILD_DIR/sanitize)
set -euo pipefail
build=$(cd "${1:?usage: tests/sanitize/run.sh BUILD_DIR [LOGS]}" && pwd)
logs=${2:-$build/sanitize}
mkdir -p "$logs"
export MPGEN_REQUIRE_GPU=1 MPGEN_TEST_CASES=${MPGEN_TEST_CASES:-16}
tests=$build/tests/cpp
# mpgen-run's runs: where and what, then its operands: their format (hex; dec: decimal,
# for GF; signed: decimal of either sign, for RNS; points N: N lines of one, GF's FFT) and
# their widths in bits, 4 lines of random values.
runs=("--bits 256 --op mul|hex 256 256" "--bits 521 --op div_qr|hex 521 521" "--bits 381 --op gcd|hex 381 381"
      "--field secp256k1 --op modexp|hex 255 255" "--field bls12_381_fp --op modinv|hex 380"
      "--rns rns32 --op mul|signed 400 400" "--rns rns8 --op sign|signed 200"
      "--gf gf8 --op mul|dec 500 500" "--gf gf8 --fft 16|points 16"
      "--bits 4096 --op mul|hex 4096 4096" "--bits 8192 --op div_qr|hex 8192 8192"
      "--bits 16384 --mul ntt --op sqr|hex 16384" "--bits 65536 --op mul_lo|hex 65536 65536"
      "--bits 131072 --op div_qr|hex 131072 131072" "--bits 131072 --op sqrt|hex 131072"
      "--bits 524288 --op add|hex 524288 524288" "--bits 524288 --op mul|hex 524288 524288"
      "--bits 1048576 --op div_qr|hex 1048576 1048576")
operands() {  # the lines for one of the runs' operand specs
  python3 - "$@" <<'PY'
import random, sys
random.seed(20261129)
kind, *spec = sys.argv[1:]
if kind == "points":
    lines = [[str(random.getrandbits(500))] for _ in range(int(spec[0]))]
else:
    def value(bits: int) -> str:
        x = random.getrandbits(bits) | 1 << bits - 1
        return format(x, "x") if kind == "hex" else str(x * random.choice((-1, 1)) if kind == "signed" else x)
    lines = [[value(int(bits)) for bits in spec] for _ in range(4)]
print("\n".join(" ".join(line) for line in lines))
PY
}
failed=0
sanitize() {  # TOOL NAME COMMAND...: one run, its report in LOGS/TOOL-NAME.log
  local tool=$1 name=$2 start=$SECONDS
  shift 2
  local log="$logs/$tool-$name.log"
  if timeout "${MPGEN_SANITIZE_TIMEOUT:-900}" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 \
      "$@" >"$log" 2>&1; then
    echo "sanitize: $tool $name: $(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -1 | sed 's/^=* *//') ($((SECONDS - start)) s)"
  else
    echo "sanitize: $tool $name FAILED (rc $? (124: timed out), $((SECONDS - start)) s):"
    grep -E "^=========" "$log" | head -20
    failed=1
  fi
}
for tool in ${MPGEN_SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck}; do
  for binary in mpgen-embed-test mpgen-rns-tests mpgen-gf-tests mpgen-modular-tests; do
    sanitize "$tool" "$binary" "$tests/$binary"
  done
  for run in "${runs[@]}"; do
    read -ra where <<<"${run%%|*}"
    read -ra spec <<<"${run#*|}"
    name=$(echo "${where[*]}" | tr -d '-' | tr ' ' '_')
    operands "${spec[@]}" >"$logs/input-$name.txt"
    sanitize "$tool" "run_$name" "$build/mpgen-run" "${where[@]}" --device gpu <"$logs/input-$name.txt"
  done
done
[ "$failed" = 0 ] || { echo "sanitize: errors reported (the reports are in $logs)" >&2; exit 1; }
echo "sanitize: every run ended with 0 errors"
