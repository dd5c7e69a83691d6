#!/usr/bin/env bash
# Pollard's rho on the GPU (examples/rho, mpgen-rho): the test curves solved and checked,
# a sweep of the walk's shape on ECCp-79, then each ECCp curve's rate for --seconds.
# Run in the repository root on the GPU machine, with build/ carried: bench/rho.sh [seconds per rate] [seconds for ECCp-79]
set -uo pipefail
rho=build/examples/rho/mpgen-rho
seconds=${1:-10}
build/mpgen-bench --device gpu --bits 64 --quick | head -1  # the multiply-add ceiling, this run
while read -r name p a b n px py qx qy k; do
  [[ $name == curve* ]] || continue
  echo "== $name on the GPU (k = $k)"
  $rho --field "$name" --curve "$a,$b,$px,$py,$qx,$qy,$n" --device gpu | grep -E "solved|check|after"
done < examples/rho/test_curves.txt
best=0 shape=""
for batch in 16 32 64; do
  for per_sm in 1 2 4; do
    echo "== eccp79 --batch $batch --blocks-per-sm $per_sm"
    line=$($rho --field eccp79 --device gpu --batch "$batch" --blocks-per-sm "$per_sm" --seconds "$seconds" | tail -1)
    echo "$line"
    rate=$(grep -oE '[0-9.e+]+ iterations/s' <<<"$line" | cut -d' ' -f1)
    if python3 -c "import sys; sys.exit(not float('$rate') > float('$best'))"; then
      best=$rate shape="--batch $batch --blocks-per-sm $per_sm"
    fi
  done
done
echo "== fastest shape: $shape ($best iterations/s)"
for field in eccp89 eccp97 eccp109 eccp131; do
  echo "== $field $shape"
  $rho --field "$field" --device gpu --seconds "$seconds" $shape | tail -1
done
echo "== eccp79 solved end to end, $shape (at most ${2:-300} s)"
$rho --field eccp79 --device gpu $shape --seconds "${2:-300}"
