#!/usr/bin/env bash
# Pollard's rho on the GPU (examples/rho, mpgen-rho), run in the repository root on the GPU
# machine with build/ carried:
#   bench/rho.sh [--sweep] [seeds...]
# the multiply-add ceiling of this run; the test curves solved on the GPU and checked;
# with --sweep, the walk's shapes timed on ECCp-79 and the fastest used below; each ECCp
# curve's rate for 10 s on the GPU and ECCp-79's and ECCp-131's on the host's cores; then
# ECCp-79 solved end to end once per seed (default: 1), at most 240 s each.
set -uo pipefail
rho=build/examples/rho/mpgen-rho
sweep=0
if [[ ${1:-} == --sweep ]]; then sweep=1; shift; fi
seeds=("${@:-1}")
build/mpgen-bench --device gpu --bits 64 --quick | head -1
while read -r name p a b n px py qx qy k; do
  [[ $name == curve* ]] || continue
  echo "== $name on the GPU (k = $k)"
  $rho --field "$name" --curve "$a,$b,$px,$py,$qx,$qy,$n" --device gpu | grep -E "solved|check|after"
done < examples/rho/test_curves.txt
shape=""  # mpgen-rho's defaults, or the sweep's fastest
if (( sweep )); then
  best=0
  for batch in 16 32 64 128; do
    for block in 128 256; do
      for per_sm in 1 2; do
        args="--batch $batch --block-threads $block --blocks-per-sm $per_sm"
        line=$($rho --field eccp79 --device gpu $args --seconds 8 2>&1 | tail -1)
        echo "== eccp79 $args: $line"
        rate=$(grep -oE '[0-9.e+]+ iterations/s' <<<"$line" | cut -d' ' -f1)
        if [[ -n $rate ]] && python3 -c "import sys; sys.exit(not $rate > $best)"; then
          best=$rate shape=$args
        fi
      done
    done
  done
  echo "== fastest: $shape ($best iterations/s)"
fi
for field in eccp79 eccp89 eccp97 eccp109 eccp131; do
  echo "== $field, gpu $shape"
  $rho --field "$field" --device gpu --seconds 10 $shape | tail -1
done
for field in eccp79 eccp131; do
  echo "== $field, cpu"
  $rho --field "$field" --device cpu --seconds 10 | grep -E "device|stopped"
done
for seed in "${seeds[@]}"; do
  echo "== eccp79 solved end to end, --seed $seed"
  $rho --field eccp79 --device gpu --seed "$seed" --seconds 240 $shape
done
