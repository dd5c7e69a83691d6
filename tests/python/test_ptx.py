"""The PTX that nvcc makes of the generated code: straight-line, exact width."""
import re
import shutil
import subprocess

import pytest

from mpgen.render import render_files
from mpgen.size import Size

KERNEL = """
#include "mpgen_u{bits}.cuh"
using Op = mpgen::u{bits}::{op};
// One instance, no bounds check: any branch in the PTX comes from the operation.
__global__ void only_{op}(const uint32_t* in, uint32_t* out) {{
  uint32_t x[Op::in_words], y[Op::out_words];
#pragma unroll
  for (unsigned w = 0; w < Op::in_words; ++w) x[w] = in[w];
  Op::device(y, x);
#pragma unroll
  for (unsigned w = 0; w < Op::out_words; ++w) out[w] = y[w];
}}
"""


def ptx_of(tmp_path, bits: int, op: str) -> str:
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc (the CUDA toolkit) is needed to check the generated PTX"
    for name, text in render_files([Size(bits)], [op]).items():
        (tmp_path / name).write_text(text)
    (tmp_path / "k.cu").write_text(KERNEL.format(bits=bits, op=op))
    subprocess.run([nvcc, "-arch=sm_90", "-ptx", "-I", str(tmp_path), str(tmp_path / "k.cu"),
                    "-o", str(tmp_path / "k.ptx")], check=True)
    return (tmp_path / "k.ptx").read_text()


def instructions(ptx: str) -> list[str]:
    body = ptx[ptx.index("{", ptx.index(".entry")):]
    return [line.strip() for line in body.splitlines()
            if line.strip() and not line.strip().startswith(("//", ".", "{", "}"))]


def test_mul_131_is_straight_line_with_a_9_limb_product(tmp_path):
    code = instructions(ptx_of(tmp_path, 131, "mul"))
    assert not [i for i in code if re.match(r"(@!?%p\w+\s+)?bra", i) or i.startswith("@")]
    assert not [i for i in code if re.match(r"\$\w+:", i)], "labels mean loops or branches"
    stores = [i for i in code if i.startswith("st.global")]
    assert len(stores) == 9
    products = [i for i in code if re.match(r"(mul|mad)c?\.(lo|hi)", i)]
    assert len(products) == 2 * 5 * 5 - 1  # the top limb's high half is never computed
