"""Builds bench/group/sweep.cu for the group tier's div_qr by each method at each size given
(default 65536 131072 262144 bits): the schoolbook (group/division.py), Newton's reciprocal
after the schoolbook's first T / 2^m digits, m = 1 .. 4 or those given by `--steps 5,6,7`
(group/newton.py; data/group.toml's [division] newton_schoolbook_digits), and mul at the same
size, the product Newton's steps take. Into build/group-sweep/ (nvcc here, 2 at a time);
`--run` runs them (on the GPU), each line after its binary's name. Their figures set
[division] newton_from_bits and newton_schoolbook_digits."""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "generator"))

from mpgen import cli  # noqa: E402
from mpgen.plan import group_program  # noqa: E402
from mpgen.size import Size  # noqa: E402
from mpgen.tiers import GROUP_TABLE  # noqa: E402

OUT = ROOT / "build" / "group-sweep"
METHODS = {"schoolbook": None, **{f"newton{m}": m for m in range(1, 5)}}


def generate(bits: int, op: str, method: str) -> list[str]:
    """The generated header's folder for one variant, and the nvcc command that builds it."""
    table = GROUP_TABLE["division"]
    table["newton_from_bits"] = bits if METHODS.get(method) else 1 << 30
    threads = Size(bits, tier_name="group").tier_for(op).threads_per_instance
    table["newton_schoolbook_digits"] = table["spanning_newton_schoolbook_digits"] = \
        threads >> (METHODS.get(method) or 0)
    group_program.cache_clear()  # planned once per size and name otherwise
    folder = OUT / "gen" / f"division_{bits}_{op}_{method}"
    if cli.main(["generate", "--bits", str(bits), "--tier", "group", "--ops", op, "--clean", "--out", str(folder)]):
        raise SystemExit(f"generating {folder} failed")
    return ["nvcc", "-O3", "-arch=sm_90", "-std=c++17", f"-DHEADER={folder}/mpgen_u{bits}.cuh", f"-DNS=u{bits}",
            f"-DOP={op}", str(ROOT / "bench/group/sweep.cu"), "-o", str(OUT / f"division_{bits}_{op}_{method}")]


def run() -> None:
    for binary in sorted(OUT.glob("division_*")):
        done = subprocess.run([str(binary)], capture_output=True, text=True)
        print(f"{binary.name}: {done.stdout.strip()}{done.stderr.strip()}", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--run"]:
        return run()
    args = sys.argv[1:]
    if "--steps" in args:  # Newton's steps m of its own: newton<m> alone (no schoolbook)
        at = args.index("--steps")
        steps = [int(m) for m in args.pop(at + 1).split(",")]
        args.pop(at)
        METHODS.clear()
        METHODS.update({f"newton{m}": m for m in steps})
    sizes = [int(b) for b in args] or [65536, 131072, 262144]
    commands = [generate(bits, "div_qr", method) for bits in sizes for method in METHODS] + \
        [generate(bits, "mul", "product") for bits in sizes]
    with ThreadPoolExecutor(2) as pool:
        for command, done in zip(commands, pool.map(subprocess.run, commands)):
            if done.returncode:
                raise SystemExit(f"{' '.join(command)} failed")


if __name__ == "__main__":
    main()
