#!/usr/bin/env bash
# Builds bench/group/sweep.cu once per "bits threads operation [method]" spec (the
# arguments, else the list below), each from `mpgen generate --bits B --threads T --ops OP
# [--mul METHOD]` (threads 0: the generator's table; method ntt: products by transform), into
# build/group-sweep/ (nvcc here, 2 at a time), and GMP's rate on every core beside them
# (bench/group/gmp_rate.cpp: build/group-sweep/gmp_rate BITS OP...); run them on the GPU with:
#   for b in build/group-sweep/sweep_*; do $b; done
# Their figures set generator/mpgen/data/group.toml.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/group-sweep
mkdir -p "$out/gen"
specs=("4096 8 mul_lo" "4096 16 mul_lo" "4096 32 mul_lo" "8192 16 mul_lo" "8192 32 mul_lo" "8192 64 mul_lo"
       "32768 64 mul_lo" "32768 128 mul_lo" "32768 256 mul_lo" "131072 256 mul_lo" "131072 512 mul_lo"
       "262144 512 mul_lo" "262144 1024 mul_lo" "32768 128 add" "32768 256 add" "131072 256 add"
       "131072 512 add" "131072 1024 add" "262144 512 add" "262144 1024 add")
[ $# -gt 0 ] && specs=("$@")
for spec in "${specs[@]}"; do
  read -r bits threads op mul <<<"$spec"
  mul=${mul:-auto}
  module=u$bits$([ "$mul" = ntt ] && echo _ntt || true)
  dir="$out/gen/${bits}_${threads}_${op}_$mul"
  rm -rf "$dir"
  PYTHONPATH=generator python3 -m mpgen generate --bits "$bits" --threads "$threads" --ops "$op" --mul "$mul" \
    --out "$dir" >/dev/null
  echo "nvcc -O3 -arch=sm_90 -std=c++17 -DHEADER=$PWD/$dir/mpgen_$module.cuh -DNS=$module -DOP=$op bench/group/sweep.cu -o $out/sweep_${bits}_${threads}_${op}_$mul"
done | xargs -P 2 -I{} sh -c "{}"
g++ -O2 -fopenmp bench/group/gmp_rate.cpp -lgmp -o "$out/gmp_rate"
