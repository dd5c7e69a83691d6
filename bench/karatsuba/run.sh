#!/usr/bin/env bash
# Measures chained mul and sqr, schoolbook against one level of Karatsuba, on the GPU at
# 8 to 64 limbs, and writes the thresholds the generator's "auto" method uses.
# Usage (repository root, on a machine with a GPU, nvcc, python3 and jinja2):
#   bench/karatsuba/run.sh [OUT_DIR]
# Writes OUT_DIR/karatsuba.csv and generator/mpgen/data/karatsuba.toml.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-karatsuba}
mkdir -p "$out"
export PYTHONPATH="$PWD/generator${PYTHONPATH:+:$PYTHONPATH}"
limbs="8 12 16 20 24 28 32 40 48 56 64"
jobs=()
for l in $limbs; do
  for method in schoolbook karatsuba; do
    bits=$((32 * l))
    python3 -m mpgen generate --bits "$bits" --ops mul,sqr --mul "$method" --out "$out/$method-$bits" >/dev/null
    jobs+=("$method $bits")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -L 1 sh -c \
  'nvcc -O3 -std=c++17 -arch=sm_90 -DMPGEN_NS=u$1 -include mpgen_u$1.cuh -I "'"$out"'/$0-$1" \
     bench/karatsuba/chain.cu -o "'"$out"'/chain-$0-$1"'
echo "op,bits,method,products_per_second" >"$out/karatsuba.csv"
for job in "${jobs[@]}"; do
  set -- $job
  "$out/chain-$1-$2" "$1" | tee -a "$out/karatsuba.csv"
done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
python3 bench/karatsuba/choose.py "$out/karatsuba.csv" "$gpu" >generator/mpgen/data/karatsuba.toml
cat generator/mpgen/data/karatsuba.toml
