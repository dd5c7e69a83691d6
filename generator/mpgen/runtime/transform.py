"""A generalized Fermat field's FFT from Python (module.fft): the entries and geometry of its
contract (the manifest's gf.fft), run by the module's backend."""
from __future__ import annotations

from . import values
from .gpu import batch_memory


class Transform:
    """fft(points, inverse=False): the FFT of n = K^e points (K = 2k, X_j = sum_i x_i w^(i j)
    for the field's primitive n-th root w with w^(n/K) = r), or its inverse (scaled by n^-1).
    points: a list of n ints below p (one transform) or a list of such lists (one transform
    each), results alike; or a NumPy or CuPy uint32 array of elements (the module's own form),
    shape (n, 2k) or (count, n, 2k), the result a new array of its kind and shape."""

    name = "fft"

    def __init__(self, module, contract: dict) -> None:
        self.module, self.contract = module, contract
        self.words = module.contract["limbs"]  # an element's: 2k

    def __repr__(self) -> str:
        return f"<mpgen operation {self.module.name}.fft: FFTs of K^e points, K = {self.contract['radix']}>"

    def __call__(self, points, inverse: bool = False):
        if not isinstance(inverse, bool):
            raise TypeError(f"fft: inverse={inverse!r}; give True or False")
        if values.is_array(points):
            return self._arrays(points, inverse)
        if values.is_single(points) or isinstance(points, (set, frozenset, dict)):
            raise TypeError(f"fft: a {type(points).__name__}; give a list of n ints, a list of such lists, or an array")
        rows = list(points)
        nested = bool(rows) and not values.is_single(rows[0])
        transforms = [list(r) for r in rows] if nested else [rows]
        n = len(transforms[0])
        for c, t in enumerate(transforms):
            if len(t) != n:
                raise ValueError(f"fft: transform {c} has {len(t)} points, transform 0 has {n}; give one length")
        self._check_length(n)
        flat = [x for t in transforms for x in t]
        elements = self.module.encode(flat, "fft's points" + (" (transforms one after another)" if nested else ""))
        out = self._run(values.to_kind(elements.array, "numpy", "contiguous"), n, len(transforms), inverse)
        ints = self.module.decode(out, elements.kind, False)
        return [ints[c * n:(c + 1) * n] for c in range(len(transforms))] if nested else ints

    def _arrays(self, points, inverse: bool):
        if points.dtype != values.UINT32:
            raise TypeError(f"fft: an array of {points.dtype}; give uint32 elements")
        if points.ndim not in (2, 3) or points.shape[-1] != self.words:
            raise ValueError(f"fft: shape {tuple(points.shape)}; give (n, {self.words}) or (count, n, {self.words}) "
                             "(elements, 2k words each)")
        n = points.shape[-2]
        self._check_length(n)
        count = points.shape[0] if points.ndim == 3 else 1
        out = self._run(points.reshape(count * n, self.words), n, count, inverse)
        kind = "cupy" if values.common_module(points) is not values.np else "numpy"
        return values.to_kind(out, kind, "contiguous").reshape(points.shape)

    def _check_length(self, n: int) -> None:
        radix, largest = self.contract["radix"], self.contract["largest_log"]
        m = radix
        while m < n:
            m *= radix
        if m != n or n.bit_length() - 1 > largest:
            raise ValueError(f"fft: {n} points; give K^e points (K = 2k = {radix}, e >= 1), at most 2^{largest}")

    def _run(self, elements, n: int, count: int, inverse: bool):
        """count transforms of n points, the rows of elements ((count n, 2k)), on the module's
        device; a new array."""
        if count == 0:
            return elements.copy()
        with batch_memory("fft", count, f"{3 * n * self.words} words a transform of {n} points"):
            return self.module._backend.transform(self.contract, n, count, inverse, elements)
