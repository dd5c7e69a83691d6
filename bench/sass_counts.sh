#!/usr/bin/env bash
# Counts, in the SASS of a binary, the multiply-class instructions (IMAD, IMAD.WIDE,
# IMAD.HI...) of each chained-product kernel: what the multiply-add ceiling is charged
# with, after ptxas has dropped the work whose results are unused.
# Usage: bench/sass_counts.sh build/mpgen-bench   (needs cuobjdump, from the CUDA toolkit)
set -euo pipefail
cuobjdump -sass "$1" | awk '
  /Function :/ { name = $3 }
  name ~ /chain/ && /IMAD/ { imad[name]++; if (/IMAD.WIDE/) wide[name]++ }
  END { for (n in imad) printf "%s imad=%d wide=%d\n", n, imad[n], wide[n] }' | sort
