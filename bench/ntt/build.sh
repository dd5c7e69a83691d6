#!/usr/bin/env bash
# Builds bench/ntt/butterfly.cu once per candidate prime of the NTT product (docs/group-tier.md) and
# multiplication (montmul, modmul), into build/ntt-butterfly/ (nvcc here); run them on the
# GPU with: for b in build/ntt-butterfly/{bf,tf}_*; do $b; done
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/ntt-butterfly
mkdir -p "$out/gen"
# name, p: 2^64 - 2^32 + 1 (Solinas), 29 2^57 + 1 and 3 2^30 + 1 (those of Oancea and Watt,
# "GPU implementations for midsize integer addition and multiplication"), and 31-bit
# primes with 2^24 to 2^27 roots of unity (three of them and CRT: 32-bit digits).
primes=("goldilocks 0xffffffff00000001" "p29e57 0x3a00000000000001" "p3e30 0xc0000001"
        "p15e27 0x78000001" "p7e26 0x1c000001" "p45e24 0x2d000001")
for entry in "${primes[@]}"; do
  read -r name p <<<"$entry"
  PYTHONPATH=generator python3 -m mpgen generate --modulus "$p" --name "$name" --ops montmul,modmul,modadd,modsub \
    --out "$out/gen/$name" >/dev/null
  for mul in montmul modmul; do
    echo "nvcc -O3 -arch=sm_90 -std=c++17 -DHEADER=$PWD/$out/gen/$name/mpgen_$name.cuh -DNS=$name -DMUL=$mul bench/ntt/butterfly.cu -o $out/bf_${name}_$mul"
  done
done | xargs -P 2 -I{} sh -c "{}"
# The transform's prototype (bench/ntt/transform.cu) over each 31-bit prime, and per block
# shape and twiddle source over the first.
for name in p15e27 p7e26 p45e24; do
  nvcc -O3 -arch=sm_90 -std=c++17 -DHEADER="$PWD/$out/gen/$name/mpgen_$name.cuh" -DNS=$name bench/ntt/transform.cu \
    -o "$out/tf_$name"
done
for threads in 1024 512 256; do
  for shared in 0 1; do
    nvcc -O3 -arch=sm_90 -std=c++17 -DTHREADS=$threads -DSHARED_TWIDDLES=$shared \
      -DHEADER="$PWD/$out/gen/p15e27/mpgen_p15e27.cuh" -DNS=p15e27 bench/ntt/transform.cu -o "$out/tf_${threads}_$shared"
  done
done
# GMP's products on all cores, the CPU baseline of the NTT product (bench/ntt/gmp_batch.cpp).
g++ -O2 -std=c++17 -pthread bench/ntt/gmp_batch.cpp -lgmp -o "$out/gmp_batch"
