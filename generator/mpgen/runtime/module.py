"""Modules and their operations from Python: each operation's operands, checks, results and
launch come from its contract in the manifest (printers/manifest.py), none from a list here."""
from __future__ import annotations

import numpy as np

from . import values
from .cpu import CpuModule
from .gpu import GpuModule, available, batch_memory
from .source import Source, field_source, gf_source, rns_source, size_source
from .transform import Transform
from .values import OperandError


def minus_inverse(p: int, limbs: int) -> int:
    """-p^-1 mod 2^(32 limbs), p odd: the Montgomery operations' constant."""
    return -pow(p, -1, 1 << (32 * limbs)) % (1 << (32 * limbs))


def barrett_reciprocal(p: int, limbs: int) -> int:
    """floor((2^(2W) - 1) / p') - 2^W at W = 32 limbs, p' = p shifted up to W bits."""
    w = 32 * limbs
    normal = p << (w - p.bit_length())
    return ((1 << (2 * w)) - 1) // normal - (1 << w)


# Operands computed from the modulus where a call leaves them out: how, and what they are.
DERIVED = {"minus_inverse": (minus_inverse, lambda limbs: f"-p^-1 mod 2^{32 * limbs}"),
           "barrett_reciprocal": (barrett_reciprocal, lambda limbs: "Barrett's reciprocal")}
# Operand and result roles in a form of their own (an RNS set's integers, a GF field's
# elements): given and returned as Python integers, they go through from_binary and to_binary.
CODED = ("rns", "element")


class Operation:
    """One operation of a module: call it on batches (see mpgen.runtime)."""

    def __init__(self, module: "Module", contract: dict) -> None:
        self.module, self.contract = module, contract
        self.name = contract["name"]
        self.__doc__ = contract["summary"]
        operands = contract["operands"]
        self._modulus = next((i for i, o in enumerate(operands) if o["role"] == "modulus"), None)
        derived = 0  # trailing operands the call may leave out: computed from the modulus
        while derived < len(operands) and operands[-1 - derived]["role"] in DERIVED:
            derived += 1
        self._least = len(operands) - max(derived, contract["optional_operands"])
        self._limbs = tuple(o["limbs"] for o in operands)
        result = contract["result"]  # the words of each result array: its numbers, then the flag
        self._widths = (result["limbs"] // result["parts"],) * result["parts"] + (1,) * result["flag"]
        # (n,) arrays: the flag, and a result of one word where the module's numbers are wider
        # (cmp, popc, eq); a number of the module's own width keeps its two dimensions
        self._flat = [i >= result["parts"] or (w == 1 and module.contract["limbs"] > 1) for i, w in enumerate(self._widths)]
        # whole words and nothing to check against a modulus: arrays of the right shape go
        # straight to the kernel (_direct)
        self._unchecked = (contract["arrays_kernel"] is not None and module.modulus is None and
                           all(o["role"] == "value" and not o["below_modulus"] and o["bits"] == 32 * o["limbs"]
                               for o in operands))

    def __repr__(self) -> str:
        return f"<mpgen operation {self.module.name}.{self.name}: {self.contract['summary']}>"

    def __call__(self, *given, layout: str = "contiguous"):
        """The operation over a batch; see the module's help for the result's form."""
        if self._unchecked and len(given) == len(self._limbs):
            done = self._direct(given, layout)
            if done is not None:
                return done
        layout = values.check_layout(layout)
        operands = self.contract["operands"]
        if not self._least <= len(given) <= len(operands):
            count = str(self._least) if self._least == len(operands) else f"{self._least} to {len(operands)}"
            raise TypeError(f"{self.name} takes {count} operands, not {len(given)}")
        parts = [self.module.encode(v, self._what(k)) if o["role"] in CODED and not values.is_array(v) else
                 values.operand(v, o["limbs"], o["bits"], layout, self._what(k))
                 for k, (v, o) in enumerate(zip(given, operands))]
        counts = {p.count for p in parts if not p.single}
        if len(counts) > 1:
            raise ValueError(f"{self.name}: batches of {', '.join(map(str, sorted(counts)))} instances; give one count "
                             "(or a single value, used for every instance)")
        n = counts.pop() if counts else 1
        if self._modulus is not None:  # first: the operands left out are computed from it
            self._check_modulus(parts[self._modulus])
        parts += self._filled(parts, n)
        self._check(parts, len(given))
        first = next((p for p in parts[:len(given)] if not p.single), parts[0])
        xp = values.common_module(*(p.rows for p in parts), gpu=self.module.device == "gpu")
        if first.kind not in ("numpy", "cupy"):
            layout = "contiguous"  # batches of ints: no transposes on the way
        run = self._run_arrays if self.contract["arrays_kernel"] else self._run_packed
        with self._memory(n):
            arrays = run(xp, parts, n, layout)
        return self._results(arrays, first.kind, layout, all(p.single for p in parts[:len(given)]))

    def _memory(self, n: int):
        return batch_memory(self.name, n, f"{self.contract['in_words'] + self.contract['out_words']} words an instance")

    def _direct(self, given: tuple, layout: str):
        """The call's result where every operand is a whole array of the backend's module
        (NumPy on the CPU, CuPy on the GPU), uint32, C-contiguous, aligned and of the
        layout's shape, with nothing to check: the kernel runs on the arrays as they are (a
        call's whole cost beside the kernel's, measured in bench/NOTES.md); else None."""
        kind = type(given[0])
        if kind is not self.module.array_type:
            return None
        interleaved = layout == "interleaved"
        if not interleaved and layout != "contiguous":
            return None
        shape0 = given[0].shape
        if len(shape0) != 2:
            return None
        n = shape0[1] if interleaved else shape0[0]
        for x, limbs in zip(given, self._limbs):
            if (type(x) is not kind or x.dtype != values.UINT32 or x.shape != ((limbs, n) if interleaved else (n, limbs))
                    or not x.flags.c_contiguous or self.module.misaligned(x)):
                return None
        xp = self.module.array_module
        with self._memory(n):
            outputs = [xp.empty((w, n) if interleaved else (n, w), dtype=values.UINT32) for w in self._widths]
            self.module._backend.run_arrays(self.contract, n, values.LAYOUTS[layout], given, outputs)
        return self._results(outputs, "cupy" if xp is not np else "numpy", layout, False)

    def _what(self, k: int) -> str:
        role = self.contract["operands"][k]["role"]
        return f"operand {k + 1} of {self.name}" + ("" if role in ("value", *CODED) else f" ({role.replace('_', ' ')})")

    def _filled(self, parts: list, n: int) -> list:
        """The operands left out: zeros where optional, else computed from the modulus."""
        operands = self.contract["operands"]
        filled = []
        for k in range(len(parts), len(operands)):
            o = operands[k]
            if o["role"] in DERIVED:
                value = self._derived(parts[self._modulus], o["role"], o["limbs"])
                filled.append(values.Operand(value, "contiguous", value.shape[0] == 1, "int", value.shape[0]))
            else:
                filled.append(values.Operand(values.int_row(0, o["limbs"]), "contiguous", True, "int", 1))
        return filled

    def _derived(self, modulus: values.Operand, role: str, limbs: int):
        moduli = values.limbs_to_ints(modulus.rows)
        rows = np.concatenate([values.int_row(DERIVED[role][0](p, limbs), limbs) for p in moduli])
        return values.common_module(modulus.rows).asarray(rows) if modulus.kind == "cupy" else rows

    def _check_modulus(self, modulus: values.Operand) -> None:
        what = self._what(self._modulus)
        rows = modulus.rows
        xp = values.common_module(rows)
        values.raise_at(xp, (rows == 0).all(axis=1), lambda i: f"{what}: element {i} is 0")
        if self.contract["operands"][self._modulus].get("odd", False):
            values.raise_at(xp, rows[:, 0] & 1 == 0,
                             lambda i: f"{what}: element {i} is even; it must be odd (Montgomery form)")

    def _check(self, parts: list, given: int) -> None:
        """Operands below the modulus where the contract says so; derived ones given right."""
        operands = self.contract["operands"]
        if self._modulus is None:
            p = self.module.modulus
            for k, (part, o) in enumerate(zip(parts, operands)):
                if o["below_modulus"] and p is not None:
                    values.require_below(part.rows, values.int_row(p, o["limbs"]), self._what(k), self.module.bound_text)
            return
        modulus = parts[self._modulus]  # checked before the operands left out were computed
        for k, (part, o) in enumerate(zip(parts, operands)):
            if o["below_modulus"]:
                values.require_below(part.rows, modulus.rows, self._what(k),
                                     f"the modulus (operand {self._modulus + 1})")
            elif o["role"] in DERIVED and k < given:  # those left out were just computed
                want = self._derived(modulus, o["role"], o["limbs"])
                xp = values.common_module(part.rows, want)
                bad = (xp.asarray(part.rows) != xp.asarray(want)).any(axis=1)
                described = DERIVED[o["role"]][1](o["limbs"])
                values.raise_at(xp, bad, lambda i: f"{self._what(k)}: element {i} is not {described} of its "
                                "modulus; leave it out and it is computed")

    def _oriented(self, xp, part: values.Operand, n: int, layout: str):
        """An operand's n instances in the layout's orientation ((n, limbs) or (limbs, n)), as it
        lies where it is already; a single value repeated (a view)."""
        if part.layout == layout and part.count == n:
            return xp.asarray(part.array)
        limbs = part.rows.shape[1]
        if layout == "contiguous":
            return xp.broadcast_to(xp.asarray(part.rows), (n, limbs))
        return xp.broadcast_to(xp.asarray(part.array if part.layout == layout else part.rows.T), (limbs, n))

    def _run_arrays(self, xp, parts: list, n: int, layout: str) -> list:
        """The arrays entry: each operand and result in an array of its own, no packing."""
        inputs = [values.aligned(xp, self._oriented(xp, p, n, layout), self.module.misaligned) for p in parts]
        on = np if self.module.device == "cpu" else xp  # the outputs where the backend writes them
        outputs = [on.empty((n, w) if layout == "contiguous" else (w, n), dtype=on.uint32) for w in self._widths]
        self.module._backend.run_arrays(self.contract, n, values.LAYOUTS[layout], inputs, outputs)
        return outputs

    def _run_packed(self, xp, parts: list, n: int, layout: str) -> list:
        """The batch kernel over one array of every instance's in words (an RNS set's or a GF
        field's operations, which have no arrays entry)."""
        axis = 1 if layout == "contiguous" else 0
        words = xp.concatenate([self._oriented(xp, p, n, layout) for p in parts], axis=axis)
        out = self.module._backend.run(self.contract, n, values.LAYOUTS[layout], words)
        arrays, first = [], 0
        for width in self._widths:
            arrays.append(out[:, first:first + width] if axis == 1 else out[first:first + width])
            first += width
        return arrays

    def _results(self, arrays: list, kind: str, layout: str, single: bool):
        result = self.contract["result"]
        # back to integers where the operation computes on coded values (not from_binary's)
        coded = (result.get("role") in CODED and kind in ("int", "mpz") and
                 any(o["role"] in CODED for o in self.contract["operands"]))
        out = [self.module.decode(a, kind, single) if coded and i == 0 else
               values.to_kind(a, kind, layout, result["signed"] and i < result["parts"], single, self._flat[i])
               for i, a in enumerate(arrays)]
        return out[0] if len(out) == 1 else tuple(out)


class Module:
    """A generated module compiled for a device: its operations are its methods
    (module.mul(a, b)), listed in module.operations."""

    def __init__(self, source: Source, device: str = "auto") -> None:
        if device not in ("auto", "cpu", "gpu"):
            raise ValueError(f"device {device!r}: give auto, cpu or gpu")
        why = available() if device != "cpu" else "not asked for"
        if device == "gpu" and why:
            raise RuntimeError(f"device gpu: {why}")
        self.contract = contract = source.contract
        self.name, self.bits, self.tier = contract["name"], contract["bits"], contract["tier"]
        # what operands marked below_modulus are below: a field's p, an RNS set's M (in magnitude)
        bound = (contract["field"] or {}).get("modulus") or (contract.get("gf") or {}).get("modulus") or \
            (contract.get("rns") or {}).get("product")
        self.modulus = None if bound is None else int(bound, 16)
        self.bound_text = f"M = {bound} in magnitude" if self.tier == "rns" else f"p = {bound}"
        self._backend = GpuModule(source) if why is None else CpuModule(source)
        self.device = self._backend.device
        self.array_type = self._backend.array_type  # the arrays its kernels read where they are
        self.array_module = values.common_module(gpu=self.device == "gpu")
        self.misaligned = self._backend.misaligned
        self.operations = {op["name"]: Operation(self, op) for op in source.contract["operations"]}
        transform = (contract.get("gf") or {}).get("fft")
        if transform:
            self.operations["fft"] = Transform(self, transform)

    def encode(self, value, what: str) -> values.Operand:
        """Integers given for an RNS integer or a field element, in that form: checked below M
        or p (RNS integers in magnitude: they are signed), then the module's from_binary."""
        single = values.is_single(value)
        items = [value] if single else list(value)
        ints = [values.index(v, what, i) for i, v in enumerate(items)]
        convert = self.operations["from_binary"]
        magnitude = convert.contract["operands"][0]
        rows = values.ints_to_limbs([abs(x) if self.tier == "rns" else x for x in ints], magnitude["limbs"],
                                    magnitude["bits"], what)
        values.require_below(rows, values.int_row(self.modulus, magnitude["limbs"]), what, self.bound_text)
        operands = [rows] + ([np.array([x < 0 for x in ints], dtype=np.uint32)] if self.tier == "rns" else [])
        array = convert(*operands)
        return values.Operand(array, "contiguous", single, values.kind_of(items), len(ints))

    def decode(self, array, kind: str, single: bool):
        """A result in RNS or element form back to integers: the module's to_binary (an RNS
        integer's sign comes as its flag)."""
        out = self.operations["to_binary"](values.to_kind(array, "numpy", "contiguous"))
        if self.tier == "rns":
            magnitudes, signs = out
            ints = [-m if s else m for m, s in zip(values.limbs_to_ints(magnitudes), signs.tolist())]
        else:
            ints = values.limbs_to_ints(out)
        return values.ints_as(ints, kind, single)

    def __getattr__(self, name: str) -> Operation:
        operations = self.__dict__.get("operations", {})
        if name in operations:
            return operations[name]
        raise AttributeError(f"{self.name} has no operation {name!r}; it has {', '.join(operations)}")

    def __dir__(self):
        return [*super().__dir__(), *self.__dict__.get("operations", {})]

    def __repr__(self) -> str:
        return f"<mpgen module {self.name} ({self.tier} tier, {self.device}): {', '.join(self.operations)}>"


def compile(bits: int, ops=None, *, device: str = "auto", tier: str | None = None, mul: str | None = None) -> Module:
    """The operations `ops` (all of the size's by default) on integers of `bits` bits."""
    return Module(size_source(bits, ops, tier, mul), device)


def field(name: str | None = None, *, modulus: int | None = None, bits: int | None = None, ops=None,
          device: str = "auto", tier: str | None = None, mul: str | None = None) -> Module:
    """Arithmetic modulo a preset's prime (field("secp256k1")) or any modulus (field(modulus=p))."""
    return Module(field_source(name, modulus, bits, ops, tier, mul), device)


def rns_set(count: int | None = None, *, moduli=None, name: str | None = None, ops=None, device: str = "auto") -> Module:
    """Signed integers in a residue number system (seed 001): rns_set(8) is 8 moduli by its
    Algorithm 3 (rns8), rns_set(moduli=[...], name="mine") a set of yours. Python ints go in and
    come out as integers (through from_binary and to_binary on the device); arrays are the
    residues' own words."""
    return Module(rns_source(count, moduli, name, ops), device)


def gf_field(k: int | None = None, *, prime: str | None = None, name: str | None = None, ops=None,
       device: str = "auto") -> Module:
    """A generalized Fermat prime field p = r^k + 1 (seed 002): gf_field(8) is table 3.1's k = 8,
    gf_field(prime="(2^63+2^34)^8+1", name="mine") one of yours. Python ints below p go in and come
    out as integers (through from_binary and to_binary on the device); arrays are elements'
    own digits."""
    return Module(gf_source(k, prime, name, ops), device)


__all__ = ["Module", "Operation", "OperandError", "compile", "field", "gf_field", "rns_set"]
