"""The share of the multiply-add ceiling that mpgen-rho's GPU rates reach: each rate (from
bench/rho.sh's output) times the 32-bit multiply halves one iteration issues, over the
ceiling measured in the same run. Halves per iteration, from the generated code's own
counts (each field's manifest and loop domain, in mpgen-rho's build folder):
5 montmul + 1 montsqr per walk and step (rho.cuh's step_batch; 3 products fewer for one
walk of each batch), plus one inversion per batch of B walks: a^(p-2) in windows of w bits
(headers/loops.cuh's power: 2^(w-1) - 1 squares and products for its table, then w squares
and a product per further window).

    python3 bench/rho_share.py bench/results/rho-h100-run2-2026-11-23.txt build [B]"""
import json
import math
import re
import sys
from pathlib import Path


def constant(header: str, name: str) -> int:
    return int(re.search(rf"static constexpr unsigned {name} = (\d+);", header).group(1))


def main(output: str, build: str, batch: int = 16) -> None:
    text = Path(output).read_text()
    ceiling = float(re.search(r"multiply-add ([\d.]+) T halves/s", text).group(1)) * 1e12
    rates = dict(re.findall(r"== (eccp\d+), gpu[^\n]*\n.*?([\d.e+]+) iterations/s", text))
    print(f"ceiling {ceiling / 1e12:.2f} T halves/s, batch {batch}")
    print("| field | limbs | iterations/s | products/iteration | halves/iteration | share of the ceiling |")
    print("| --- | --- | --- | --- | --- | --- |")
    for field, rate in rates.items():
        folder = Path(build) / "examples" / "rho" / "mpgen" / f"mpgen-rho.{field}"
        module = json.loads((folder / "mpgen_manifest.json").read_text())["modules"][0]
        halves = {o["name"]: o["multiplies"] for o in module["operations"]}
        header = (folder / f"mpgen_{field}.cuh").read_text()
        width, bits = constant(header, "window_bits"), constant(header, "fermat_exponent_bits")
        table = 2 ** (width - 1) - 1
        windows = math.ceil(bits / width)
        squares, products = table + (windows - 1) * width, table + windows - 1
        inversion = squares * halves["montsqr"] + products * halves["montmul"]
        per_walk = (5 - 3 / batch) * halves["montmul"] + halves["montsqr"] + inversion / batch
        count = 6 - 3 / batch + (squares + products) / batch
        print(f"| {field} | {module['limbs']} | {float(rate):.3g} | {count:.1f} | {per_walk:.0f} | "
              f"{float(rate) * per_walk / ceiling:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:]))
