"""Plots mpgen-bench's CSV: products per second of the chained mul and sqr against size,
with CGBN's published mul figures. Usage: python bench/plot.py bench.csv out.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plt.subplots(figsize=(7, 4.5))
for workload, style in (("mul chain (CGBN)", "o-"), ("sqr chain", "s-")):
    points = sorted((int(r["bits"]), float(r["ops_per_s"])) for r in rows if r["workload"] == workload)
    ax.plot(*zip(*points), style, label=f"mpgen {workload}")
cgbn = sorted((int(r["bits"]), float(r["peer_ops_per_s"])) for r in rows
              if r["workload"] == "mul chain (CGBN)" and float(r["peer_ops_per_s"]) > 0)
ax.plot(*zip(*cgbn), "x--", label="CGBN mul (H100, 2026-11-22)")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xlabel("bits")
ax.set_ylabel("products per second")
ax.set_title("Chained products on the H100 (mpgen-bench)")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
