"""Reads run.sh's CSV and prints the thresholds file: for mul and sqr, the smallest
limb count from which one Karatsuba level is faster at every measured size."""
import csv
import datetime
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
gpu = sys.argv[2]
print("# Limb counts from which the generator's \"auto\" method uses Karatsuba for mul and sqr.")
print(f"# Measured by bench/karatsuba/run.sh on {gpu}, {datetime.date.today()}: chained products,")
print("# 2^18 threads, products per second, schoolbook vs one Karatsuba level.")
for op in ("mul", "sqr"):
    rate = {(int(r["bits"]), r["method"]): float(r["products_per_second"])
            for r in rows if r["op"] == op}
    sizes = sorted({bits for bits, _ in rate})
    wins = {bits: rate[bits, "karatsuba"] > rate[bits, "schoolbook"] for bits in sizes}
    threshold = next((bits // 32 for bits in sizes if all(wins[b] for b in sizes if b >= bits)),
                     sizes[-1] // 32 + 1)
    print(f"\n[{op}]\nthreshold_limbs = {threshold}")
    for bits in sizes:
        s, k = rate[bits, "schoolbook"], rate[bits, "karatsuba"]
        print(f"# {bits // 32:3d} limbs: schoolbook {s:.4g}/s, karatsuba {k:.4g}/s, ratio {k / s:.3f}")
