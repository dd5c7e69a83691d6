"""Batches of big integers between Python's kinds and the limb arrays the kernels read.

A batch comes as a list of Python ints (or gmpy2 mpz, anything with __index__), as a NumPy
array of uint32 limbs (least significant first: shape (n, limbs), or (limbs, n) in the
interleaved layout) or as a CuPy array of the same on the GPU; a single integer stands for
the same value in every instance. Results go back as the first batch came. Conversions are
vectorized (bytes through int.to_bytes / int.from_bytes, limbs through NumPy), and every
value is checked: a bad one raises OperandError (or TypeError) naming the operand and the
element."""
from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

LAYOUTS = {"interleaved": 0, "contiguous": 1}  # base.cuh's enum class Layout
UINT32 = np.dtype(np.uint32)


class OperandError(ValueError):
    """An operand value that the operation cannot take (too wide, negative, not below p)."""


def _is_cupy(x: object) -> bool:
    return type(x).__module__.split(".")[0] == "cupy"


def common_module(*arrays, gpu: bool = False):
    """CuPy where any array is CuPy's (or gpu holds), else NumPy: the module that holds them all."""
    if gpu or any(_is_cupy(a) for a in arrays):
        import cupy
        return cupy
    return np


def check_layout(layout: str) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: give one of {', '.join(LAYOUTS)}")
    return layout


def is_single(x: object) -> bool:
    """Whether x stands for one value (an int, an mpz, ...) rather than a batch."""
    return isinstance(x, (str, bytes, float, complex)) or not hasattr(x, "__iter__")


def is_array(x: object) -> bool:
    return isinstance(x, np.ndarray) or _is_cupy(x)


def index(v: object, what: str, i: int) -> int:
    if isinstance(v, (bool, np.bool_)):  # True is 1 to Python, but no operand here
        raise TypeError(f"{what}: element {i} is a bool, not an integer")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what}: element {i} is a {type(v).__name__}, not an integer") from None


def ints_to_limbs(values, limbs: int, bits: int, what: str) -> np.ndarray:
    """The (n, limbs) uint32 array of values (ints or anything with __index__), each checked
    to be in [0, 2^bits)."""
    size = 4 * limbs
    data = _fast_bytes(values, size)
    if data is None:
        ints = [index(v, what, i) for i, v in enumerate(values)]
        for i, x in enumerate(ints):
            if x < 0:
                raise OperandError(f"{what}: element {i} is negative ({x}); give values in [0, 2^{bits})")
            if x.bit_length() > bits:
                raise OperandError(f"{what}: element {i} is wider than {bits} bits")
        data = b"".join([x.to_bytes(size, "little") for x in ints])
    array = np.frombuffer(data, dtype="<u4").reshape(-1, limbs)
    check_width(array, bits, what)
    return array


def _fast_bytes(values, size: int) -> bytes | None:
    """The batch as one bytes object where every value is an int that fits, else None."""
    if bool in map(type, values):  # bools have to_bytes, but are refused (by index)
        return None
    try:
        return b"".join([v.to_bytes(size, "little") for v in values])
    except (AttributeError, OverflowError, TypeError):
        return None


def limbs_to_ints(array, signed: bool = False) -> list[int]:
    """The integers of an (n, limbs) array of uint32 limbs."""
    if _is_cupy(array):
        array = array.get()
    n, limbs = array.shape
    data = memoryview(np.ascontiguousarray(array, dtype="<u4").tobytes())
    size = 4 * limbs
    return [int.from_bytes(data[i * size:(i + 1) * size], "little", signed=signed) for i in range(n)]


def check_width(rows, bits: int, what: str) -> None:
    """Raises OperandError naming the first row (of an (n, limbs) array) at or above 2^bits."""
    limbs = rows.shape[1]
    if bits >= 32 * limbs:
        return
    xp = common_module(rows)
    over = rows[:, bits // 32] >> (bits % 32) != 0
    for w in range(bits // 32 + 1, limbs):
        over |= rows[:, w] != 0
    raise_at(xp, over, lambda i: f"{what}: element {i} is wider than {bits} bits")


def raise_at(xp, bad, message) -> None:
    """Raises OperandError(message(i)) for the first i where bad (a bool vector) holds."""
    if bool(bad.any()):
        raise OperandError(message(int(xp.flatnonzero(bad)[0])))


def below(rows, bound):
    """For each row of rows (n, limbs), whether it is below the row of bound broadcast
    against it (1 or n rows of the same limbs)."""
    xp = common_module(rows, bound)
    n = rows.shape[0] if bound.shape[0] == 1 else bound.shape[0]  # one value against a batch, either way
    rows = xp.broadcast_to(xp.asarray(rows), (n, rows.shape[1]))
    bound = xp.broadcast_to(xp.asarray(bound), (n, bound.shape[1]))
    less = xp.zeros(n, dtype=bool)
    equal = xp.ones(rows.shape[0], dtype=bool)
    for w in reversed(range(rows.shape[1])):
        less |= equal & (rows[:, w] < bound[:, w])
        equal &= rows[:, w] == bound[:, w]
    return less


def require_below(rows, bound, what: str, bound_name: str) -> None:
    raise_at(common_module(rows, bound), ~below(rows, bound), lambda i: f"{what}: element {i} is not below {bound_name}")


def aligned(xp, array, misaligned):
    """array C-contiguous and not misaligned (the backend's predicate: the GPU kernels' 16-byte
    loads), copied where not."""
    if array.flags.c_contiguous and not misaligned(array):
        return array
    out = xp.empty(array.shape, dtype=xp.uint32)
    out[...] = array
    return out


def int_row(value: int, limbs: int) -> np.ndarray:
    """A (1, limbs) array of one value."""
    return np.frombuffer(value.to_bytes(4 * limbs, "little"), dtype="<u4").reshape(1, limbs)


@dataclass
class Operand:
    """One operand of a call, as limbs, and what it came as."""
    array: object          # numpy or cupy, as given: (m, limbs) contiguous, (limbs, m) interleaved
    layout: str
    single: bool           # one value for every instance (m = 1)
    kind: str              # "int", "mpz", "numpy", "cupy"
    count: int             # m

    @property
    def rows(self):
        """(m, limbs): the array or a view of its transpose."""
        return self.array if self.layout == "contiguous" else self.array.T


def operand(value, limbs: int, bits: int, layout: str, what: str) -> Operand:
    """An operand from what a caller gave."""
    if is_array(value):
        kind = "cupy" if _is_cupy(value) else "numpy"
        if value.dtype != UINT32:
            raise TypeError(f"{what}: an array of {value.dtype}; give uint32 limbs (in the machine's byte order)")
        if value.ndim == 1 and limbs == 1:
            rows = value.reshape(-1, 1)
        elif value.ndim != 2:
            raise ValueError(f"{what}: an array of {value.ndim} dimensions; give "
                             f"{_shape_text(limbs, layout)}")
        else:
            rows = value if layout == "contiguous" else value.T
        if rows.shape[1] != limbs:
            raise ValueError(f"{what}: shape {tuple(value.shape)}; give {_shape_text(limbs, layout)}")
        check_width(rows, bits, what)
        return Operand(rows if layout == "contiguous" else rows.T, layout, False, kind, rows.shape[0])
    if isinstance(value, (set, frozenset, dict)):
        raise TypeError(f"{what}: a {type(value).__name__} has no order; give a list, a tuple or an array")
    if is_single(value):
        x = index(value, what, 0)
        return Operand(ints_to_limbs([x], limbs, bits, what), "contiguous", True, kind_of([value]), 1)
    values = list(value)
    return Operand(ints_to_limbs(values, limbs, bits, what), "contiguous", False, kind_of(values), len(values))


def kind_of(items: list) -> str:
    """How a batch of integers came, so that its results go back alike: gmpy2's or Python's."""
    return "mpz" if items and type(items[0]).__name__ == "mpz" else "int"


def _shape_text(limbs: int, layout: str) -> str:
    shape = f"shape (n, {limbs})" if layout == "contiguous" else f"shape ({limbs}, n) (interleaved)"
    return shape + (" or (n,)" if limbs == 1 else "")


def to_kind(array, kind: str, layout: str, signed: bool = False, single: bool = False, flat: bool = False):
    """A result array (numpy or cupy, in the layout's orientation: (n, limbs) or (limbs, n))
    as the kind the caller's first batch came in; flat: one word an instance, as (n,)."""
    xp = common_module(array)
    if kind in ("numpy", "cupy"):
        if kind == "numpy" and xp is not np:
            array = array.get()
        elif kind == "cupy" and xp is np:
            import cupy
            array = cupy.asarray(array)
        xp = common_module(array)
        out = xp.ascontiguousarray(array)
        if flat:
            out = out.reshape(-1)
        return out.view(xp.int32) if signed else out
    rows = array.reshape(-1, 1) if array.ndim == 1 else (array if layout == "contiguous" else array.T)
    return ints_as(limbs_to_ints(rows, signed), kind, single)


def ints_as(ints: list[int], kind: str, single: bool):
    """Python ints as the caller's kind: ints or gmpy2 mpz, one or a list."""
    if kind == "mpz":
        import gmpy2
        ints = [gmpy2.mpz(x) for x in ints]
    return ints[0] if single else ints
