"""Modules and their operations from Python: each operation's operands, checks, results and
launch come from its contract in the manifest (printers/manifest.py), none from a list here."""
from __future__ import annotations

from . import values
from .cpu import CpuModule
from .gpu import GpuModule, available
from .source import Source, field_source, size_source
from .values import OperandError


def _bound_text(p: int) -> str:
    return f"p = {hex(p)}"


def minus_inverse(p: int, limbs: int) -> int:
    """-p^-1 mod 2^(32 limbs), p odd: the Montgomery operations' constant."""
    return -pow(p, -1, 1 << (32 * limbs)) % (1 << (32 * limbs))


def barrett_reciprocal(p: int, limbs: int) -> int:
    """floor((2^(2W) - 1) / p') - 2^W at W = 32 limbs, p' = p shifted up to W bits."""
    w = 32 * limbs
    normal = p << (w - p.bit_length())
    return ((1 << (2 * w)) - 1) // normal - (1 << w)


DERIVED = {"minus_inverse": minus_inverse, "barrett_reciprocal": barrett_reciprocal}


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

    def __repr__(self) -> str:
        return f"<mpgen operation {self.module.name}.{self.name}: {self.contract['summary']}>"

    def __call__(self, *given, layout: str = "contiguous"):
        """The operation over a batch; see the module's help for the result's form."""
        layout = values.check_layout(layout)
        operands = self.contract["operands"]
        if not self._least <= len(given) <= len(operands):
            count = str(self._least) if self._least == len(operands) else f"{self._least} to {len(operands)}"
            raise TypeError(f"{self.name} takes {count} operands, not {len(given)}")
        parts = [values.operand(v, o["limbs"], o["bits"], layout, self._what(k))
                 for k, (v, o) in enumerate(zip(given, operands))]
        counts = {p.rows.shape[0] for p in parts if not p.single}
        if len(counts) > 1:
            raise ValueError(f"{self.name}: batches of {', '.join(map(str, sorted(counts)))} instances; give one count "
                             "(or a single value, used for every instance)")
        n = counts.pop() if counts else 1
        parts += self._filled(parts, n)
        self._check(parts)
        first = next((p for p in parts[:len(given)] if not p.single), parts[0])
        xp = values.common_module(*(p.rows for p in parts), gpu=self.module.device == "gpu")
        if first.kind not in ("numpy", "cupy"):
            layout = "contiguous"  # batches of ints: no transposes on the way
        code = values.LAYOUTS[layout]
        out = self.module._backend.run(self.contract, n, code, self._pack(xp, parts, n, layout))
        return self._results(out if layout == "contiguous" else out.T, first.kind, layout,
                             all(p.single for p in parts[:len(given)]))

    def _what(self, k: int) -> str:
        role = self.contract["operands"][k]["role"]
        return f"operand {k + 1} of {self.name}" + ("" if role == "value" else f" ({role.replace('_', ' ')})")

    def _filled(self, parts: list, n: int) -> list:
        """The operands left out: zeros where optional, else computed from the modulus."""
        operands = self.contract["operands"]
        filled = []
        for k in range(len(parts), len(operands)):
            o = operands[k]
            if o["role"] in DERIVED:
                value = self._derived(parts[self._modulus], o["role"], o["limbs"])
                filled.append(values.Operand(value, "contiguous", value.shape[0] == 1, "int"))
            else:
                filled.append(values.Operand(values.int_row(0, o["limbs"]), "contiguous", True, "int"))
        return filled

    def _derived(self, modulus: values.Operand, role: str, limbs: int):
        self._check_modulus(modulus)
        moduli = values.limbs_to_ints(modulus.rows)
        import numpy as np
        rows = np.concatenate([values.int_row(DERIVED[role](p, limbs), limbs) for p in moduli])
        return values.array_module(modulus.rows).asarray(rows) if modulus.kind == "cupy" else rows

    def _check_modulus(self, modulus: values.Operand) -> None:
        what = self._what(self._modulus)
        rows = modulus.rows
        xp = values.array_module(rows)
        values._raise_at(xp, (rows == 0).all(axis=1), lambda i: f"{what}: element {i} is 0")
        if self.contract["operands"][self._modulus].get("odd", False):
            values._raise_at(xp, rows[:, 0] & 1 == 0,
                             lambda i: f"{what}: element {i} is even; it must be odd (Montgomery form)")

    def _check(self, parts: list) -> None:
        """Operands below the modulus where the contract says so; derived ones right."""
        operands = self.contract["operands"]
        if self._modulus is None:
            p = self.module.modulus
            for k, (part, o) in enumerate(zip(parts, operands)):
                if o["below_modulus"] and p is not None:
                    values.require_below(part.rows, values.int_row(p, o["limbs"]), self._what(k), _bound_text(p))
            return
        modulus = parts[self._modulus]
        self._check_modulus(modulus)
        for k, (part, o) in enumerate(zip(parts, operands)):
            if o["below_modulus"]:
                values.require_below(part.rows, modulus.rows, self._what(k),
                                     f"the modulus (operand {self._modulus + 1})")
            elif o["role"] in DERIVED:
                want = self._derived(modulus, o["role"], o["limbs"])
                xp = values.common_module(part.rows, want)
                bad = (xp.asarray(part.rows) != xp.asarray(want)).any(axis=1)
                values._raise_at(xp, bad, lambda i: f"{self._what(k)}: element {i} is not "
                                 f"{'-p^-1 mod 2^' + str(32 * o['limbs']) if o['role'] == 'minus_inverse' else 'Barrett' + chr(39) + 's reciprocal'} "
                                 "of its modulus; leave it out and it is computed")

    def _pack(self, xp, parts: list, n: int, layout: str):
        """The in words: (n, in_words) contiguous, (in_words, n) interleaved; each operand
        taken as it lies where it is in the layout's orientation already."""
        if layout == "contiguous":
            arrays = [xp.broadcast_to(xp.asarray(p.rows), (n, p.rows.shape[1])) for p in parts]
            return xp.concatenate(arrays, axis=1)
        arrays = [xp.broadcast_to(xp.asarray(p.array if p.layout == layout else p.rows.T), (p.rows.shape[1], n))
                  for p in parts]
        return xp.concatenate(arrays, axis=0)

    def _results(self, rows, kind: str, layout: str, single: bool):
        result = self.contract["result"]
        width = result["limbs"] // result["parts"]
        out = [values.to_kind(rows[:, i * width:(i + 1) * width], kind, layout, result["signed"], single)
               for i in range(result["parts"])]
        if result["flag"]:
            out.append(values.to_kind(rows[:, result["limbs"]:result["limbs"] + 1], kind, layout, False, single))
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
        self.contract = source.contract
        self.name, self.bits, self.tier = source.contract["name"], source.contract["bits"], source.contract["tier"]
        field = source.contract["field"]
        self.modulus = int(field["modulus"], 16) if field else None
        self._backend = GpuModule(source) if why is None else CpuModule(source)
        self.device = self._backend.device
        self.operations = {op["name"]: Operation(self, op) for op in source.contract["operations"]}

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


__all__ = ["Module", "Operation", "OperandError", "compile", "field"]
