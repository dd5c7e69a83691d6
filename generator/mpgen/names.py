"""Names: what may name a field (a header, a namespace, kernels), and the files a
module is written to. Every other part of mpgen takes file and symbol names from here."""
from __future__ import annotations

import re

IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*$")

# C and C++ keywords and alternative tokens: none can name a namespace.
KEYWORDS = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not
not_eq nullptr operator or or_eq private protected public register reinterpret_cast requires
restrict return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void
volatile wchar_t while xor xor_eq
""".split())

# What mpgen's own headers define in namespace mpgen: a field of that name would merge
# with it.
RESERVED = frozenset("""
loops ptx_host ptx_host64 detail batch_thread device_batch host_batch host_range host64_range cpu_range
cpu_batch cpu_call cpu_arrays has_host64 lanes64_of through_host64 x86_adx instance_words wide_word pack
unpack warp_rows staged_batch_thread dynamic_shared_bytes field_element uint_value uint_words hex
through_host64_words copy_operands64 copy_limbs64 host64_tile host64_batch prefetch_lines prefetch_ahead_bytes prefetch_from_bytes
""".split())

ALLOWED = ("lower-case letters, digits and _, starting with a letter, no double _, "
           "not a C++ keyword")


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a field's header and namespace, or None."""
    if not IDENTIFIER.match(name) or "__" in name:
        return "is not a name mpgen can use"
    if name in KEYWORDS:
        return "is a C++ keyword"
    if name in RESERVED:
        return "is a name mpgen's headers use"
    return None


def header(module: str) -> str:
    return f"mpgen_{module}.cuh"


def kernels_source(module: str) -> str:
    return f"mpgen_{module}_kernels.cu"


def ptx(module: str) -> str:
    return f"mpgen_{module}.ptx"


def kernel(module: str, op: str) -> str:
    """The C name of an operation's batch kernel in a kernels source."""
    return f"mpgen_{module}_{op}"


def arrays_kernel(module: str, op: str) -> str:
    """The C name of its entry over operands and results in arrays of their own."""
    return f"mpgen_{module}_{op}_arrays"


MANIFEST = "mpgen_manifest.json"


def table_source(module: str) -> str:
    """The runtime's table entries of a module (mpgen generate --table)."""
    return f"mpgen_{module}_table.cu"
