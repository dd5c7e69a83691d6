"""The PTX that nvcc makes of the generated code: straight-line, exact width."""
import re
import shutil
import subprocess

import pytest

from mpgen.ops import MODULAR_OPERATIONS, defaults, modular
from mpgen.render import render_files
from mpgen.request import check_modulus
from mpgen.size import Size

# One kernel per operation, one instance, no bounds check: any branch in the PTX
# comes from the operation itself.
KERNELS = """
#include "mpgen_{name}.cuh"
#define ONLY(op) \\
  __global__ void only_##op(const uint32_t* in, uint32_t* out) {{ \\
    using Op = mpgen::{name}::op; \\
    uint32_t x[Op::in_words], y[Op::out_words]; \\
    _Pragma("unroll") for (unsigned w = 0; w < Op::in_words; ++w) x[w] = in[w]; \\
    Op::device(y, x); \\
    _Pragma("unroll") for (unsigned w = 0; w < Op::out_words; ++w) out[w] = y[w]; \\
  }}
MPGEN_{upper}_OPS(ONLY)
"""


def kernels_ptx(tmp_path, size: Size, ops=None) -> dict[str, list[str]]:
    """Operation's C++ name -> the instructions of its kernel."""
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc (the CUDA toolkit) is needed to check the generated PTX"
    for name, text in render_files([(size, ops or defaults(size))]).items():
        (tmp_path / name).write_text(text)
    (tmp_path / "k.cu").write_text(KERNELS.format(name=size.name, upper=size.name.upper()))
    subprocess.run([nvcc, "-arch=sm_90", "-ptx", "-I", str(tmp_path), str(tmp_path / "k.cu"),
                    "-o", str(tmp_path / "k.ptx")], check=True)
    ptx = (tmp_path / "k.ptx").read_text()
    kernels = {}
    for match in re.finditer(r"\.entry\s+\w*only_(\w+?)P", ptx):
        body = ptx[ptx.index("{", match.end()):]
        body = body[:body.index("\n}")]
        kernels[match[1]] = [line.strip() for line in body.splitlines() if line.strip()
                             and not line.strip().startswith(("//", ".", "{", "}"))]
    return kernels


def assert_straight_line(kernels: dict[str, list[str]], where: str) -> None:
    for name, code in kernels.items():
        branches = [i for i in code if re.match(r"(@!?%p\w+\s+)?bra", i) or i.startswith("@")]
        labels = [i for i in code if re.match(r"\$?\w+:$", i)]
        assert not branches and not labels, f"{name} {where}: {branches + labels}"


@pytest.mark.parametrize("bits, mul", [(64, "auto"), (131, "auto"), (256, "auto"),
                                       (131, "karatsuba")])
def test_every_operation_is_straight_line(tmp_path, bits, mul):
    kernels = kernels_ptx(tmp_path, Size(bits, mul))
    assert sorted(kernels) == sorted(op.cpp_name for op in defaults(Size(bits)))
    assert_straight_line(kernels, f"at {bits} bits")


# Constant time: no modular operation branches, for moduli with and without spare bits.
@pytest.mark.parametrize("modulus", [0x9362DA5CC13DA58B, (1 << 131) - 1 - 2 ** 100, 2 ** 254 - 127,
                                     2 ** 255 + 2 ** 77 + 6,
                                     2 ** 256 - 2 ** 32 - 977, 2 ** 521 - 1])
def test_every_modular_operation_is_straight_line(tmp_path, modulus):
    field = check_modulus(hex(modulus), "test")
    ops = [op for op in MODULAR_OPERATIONS.values() if modular.available(op, field)]
    kernels = kernels_ptx(tmp_path, field, ops)
    assert sorted(kernels) == sorted(op.name for op in ops)
    assert_straight_line(kernels, f"modulo {modulus:#x}")


def test_mul_131_has_a_9_limb_product_and_no_10th(tmp_path):
    code = kernels_ptx(tmp_path, Size(131))["mul"]
    assert len([i for i in code if i.startswith("st.global")]) == 9
    products = [i for i in code if re.match(r"(mul|mad)c?\.(lo|hi)", i)]
    assert len(products) == 2 * 5 * 5 - 1  # the top limb's high half is never computed
