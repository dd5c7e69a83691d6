"""Modules and their operations from Python: each operation's operands, checks, results and
launch come from its contract in the manifest (printers/manifest.py), none from a list here."""
from __future__ import annotations

import textwrap

import numpy as np

from ..errors import RequestError
from ..size import MAX_BITS, MIN_BITS
from ..tiers import THREAD_MAX_BITS
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


# Operands' names in help: an RNS set's integers and a field's elements x, y (as their
# summaries say), other values a, b, c, the rest by their role
LETTERS = {"rns": "xyz", "element": "xyz", "value": "abcdefgh"}
CODED_WHAT = {"rns": "an RNS integer", "element": "a field element"}
FORMS = ("Operands: each a batch (a list of ints or gmpy2 mpz, or a uint32 array of limbs, least significant "
         "first, of shape (n, limbs), or (limbs, n) with layout=\"interleaved\": NumPy on the CPU, CuPy on the GPU) "
         "or a single int, used for every instance.")
RESULTS = ("Returns, as the first batch operand came (a list of ints or mpz, an int where every operand was one, "
           "or an array of the operand's kind: NumPy or CuPy)")


def _wrapped(text: str, indent: str = "") -> str:
    return textwrap.fill(text, 100, initial_indent=indent, subsequent_indent=indent + "    ")


def _operand_names(operands: list) -> list[str]:
    used: dict[str, int] = {}
    names = []
    for o in operands:
        letters = LETTERS.get(o["role"])
        if letters is None:
            names.append(o["role"])
        else:
            names.append(letters[used.get(letters, 0)])
            used[letters] = used.get(letters, 0) + 1
    return names


def _operand_text(module: "Module", o: dict, runtime_modulus: bool, optional: bool) -> str:
    role = o["role"]
    if role in DERIVED:
        return f"{DERIVED[role][1](o['limbs'])} of the modulus; computed from the modulus where left out"
    if role in CODED:
        return (f"{CODED_WHAT[role]}: an int below {module.bound_text}, or an array of its {o['limbs']} words "
                "(the module's own form)")
    text = "0 or 1" if o["bits"] == 1 else f"an integer below 2^{o['bits']}"
    if o["below_modulus"]:
        text += f" and below {'the modulus' if runtime_modulus else module.bound_text}"
    if role == "modulus":
        text = f"the modulus, {text}, " + ("odd" if o.get("odd") else "not 0")
    return text + ("; optional: 0 where left out" if optional else "")


def _part_text(result: dict, width: int, flat: bool) -> str:
    shape = "(n,)" if flat else f"(n, {width}), ({width}, n) interleaved"
    if result.get("role") in CODED:
        return f"{CODED_WHAT[result['role']]}: an int, or an array of its {width} words of shape {shape}"
    if result["signed"]:
        return f"a signed integer of {width} word{'s' * (width > 1)}: an int, or an int32 array of shape {shape}"
    return f"an integer below 2^{32 * width}: an int, or an array of shape {shape}"


def _errors(module: "Module", operands: list, least: int) -> list[str]:
    roles = {o["role"] for o in operands}
    bad = ["negative"] * ("rns" not in roles) + ["too wide for its operand"]  # RNS integers are signed
    if any(o["below_modulus"] for o in operands) or roles & set(CODED):
        bad.append("not below the modulus" if "modulus" in roles else f"not below {module.bound_text}")
    if "modulus" in roles:
        bad.append("a modulus of 0 (or an even one in Montgomery form)")
    for role in sorted(roles & set(DERIVED)):
        bad.append(f"a given {role.replace('_', ' ')} that is not the modulus' own")
    count = f"{least} operand{'s' * (least > 1)}" if least == len(operands) else f"{least} to {len(operands)} operands"
    return [f"OperandError: a value {', '.join(bad)}",
            "TypeError: an operand not an integer (a float, a bool, text) or an array not of uint32; a call with "
            f"other than {count}",
            "ValueError: batches of different lengths; an array not of the layout's shape; an unknown layout",
            "MemoryError: a batch that does not fit the GPU's memory (on the GPU)"]


class Operation:
    """One operation of a module: call it on batches (see mpgen.runtime)."""

    def __init__(self, module: "Module", contract: dict) -> None:
        self.module, self.contract = module, contract
        self.name = contract["name"]
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
        self.__doc__ = self._doc()

    def _doc(self) -> str:
        """What help() says: the call, its operands, results and errors, from the contract."""
        contract, operands = self.contract, self.contract["operands"]
        names = _operand_names(operands)
        optional = "".join(f"[, {n}" for n in names[self._least:]) + "]" * (len(names) - self._least)
        call = f"{self.module.name}.{self.name}({', '.join(names[:self._least])}{optional}, *, layout=\"contiguous\")"
        first_optional = len(operands) - contract["optional_operands"]
        described = [_wrapped(f"{n}: {_operand_text(self.module, o, self._modulus is not None, k >= first_optional)}",
                              "  ") for k, (n, o) in enumerate(zip(names, operands))]
        result = contract["result"]
        parts = [_part_text(result, w, f) for w, f in zip(self._widths[:result["parts"]], self._flat)]
        parts += ["a flag, 0 or 1: an int, or an array of shape (n,)"] * result["flag"]
        returns = [_wrapped(f"{RESULTS}: {parts[0]}.")] if len(parts) == 1 else \
            [_wrapped(f"{RESULTS}, a tuple of:"), *(_wrapped(f"{k + 1}. {p}", "  ") for k, p in enumerate(parts))]
        errors = [_wrapped(e, "  ") for e in _errors(self.module, operands, self._least)]
        return "\n".join([_wrapped(f"{call}: {contract['summary']}"), "", _wrapped(FORMS), *described, "", *returns,
                          "", "Raises:", *errors])

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
        call's whole cost beside the kernel's: docs/performance.md, "Python: the cost of a
        call"); else None."""
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
        rows = values.ints_to_limbs([DERIVED[role][0](p, limbs) for p in moduli], limbs, 32 * limbs, role)
        return values.common_module(modulus.rows).asarray(rows) if modulus.kind == "cupy" else rows

    def _check_modulus(self, modulus: values.Operand) -> None:
        what = self._what(self._modulus)
        rows = modulus.rows
        xp = values.common_module(rows)
        values.raise_at(xp, (rows == 0).all(axis=1), lambda i: f"{what}: element {i} is 0")
        if (given := self.contract["operands"][self._modulus]).get("odd", False):
            values.raise_at(xp, rows[:, 0] & 1 == 0,
                             lambda i: f"{what}: element {i} is even; it must be odd ({given['odd_because']})")

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
            raise RequestError(f"device {device!r}: give auto, cpu or gpu")
        why = available() if device != "cpu" else "not asked for"
        if device == "gpu" and why:
            raise RuntimeError(f"device gpu: {why}")
        self.contract = contract = source.contract
        self.name, self.bits, self.kind, self.tier = contract["name"], contract["bits"], contract["kind"], contract["tier"]
        # what operands marked below_modulus are below: a field's p, an RNS set's M (in magnitude)
        bound = (contract["field"] or {}).get("modulus") or (contract.get("gf") or {}).get("modulus") or \
            (contract.get("rns") or {}).get("product")
        self.modulus = None if bound is None else int(bound, 16)
        self.bound_text = f"M = {bound} in magnitude" if self.kind == "rns" else f"p = {bound}"
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
        rows = values.ints_to_limbs([abs(x) if self.kind == "rns" else x for x in ints], magnitude["limbs"],
                                    magnitude["bits"], what)
        values.require_below(rows, values.int_row(self.modulus, magnitude["limbs"]), what, self.bound_text)
        operands = [rows] + ([np.array([x < 0 for x in ints], dtype=np.uint32)] if self.kind == "rns" else [])
        array = convert(*operands)
        return values.Operand(array, "contiguous", single, values.kind_of(items), len(ints))

    def decode(self, array, kind: str, single: bool):
        """A result in RNS or element form back to integers: the module's to_binary (an RNS
        integer's sign comes as its flag)."""
        out = self.operations["to_binary"](values.to_kind(array, "numpy", "contiguous"))
        if self.kind == "rns":
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
        return f"<mpgen module {self.name} ({self.kind}, {self.tier} tier, {self.device}): {', '.join(self.operations)}>"


# What every public function's help says of the module it returns and of its errors
MODULE_RETURNS = """    Returns a Module: its operations are its methods (module.mul(a, b)), listed in
    module.operations, each with its operands, results and errors in help(module.mul).

    Raises:
        RequestError: a bad argument (a size, modulus, name or operation that is not one, of the
            wrong type or out of range), or a cache folder (MPGEN_CACHE) that cannot be written.
        CompileError: the compiler failed on the generated source (the host's C++ compiler,
            $MPGEN_CXX or c++, on the CPU; NVRTC on the GPU).
        RuntimeError: device="gpu" where no GPU can be used."""
DEVICE = """        device: "cpu", "gpu", or "auto" (the GPU where CuPy sees one, else the CPU)."""


def _documented(function):
    """function with its docstring's shared parts filled in (none under python -OO)."""
    if function.__doc__:
        function.__doc__ = function.__doc__.format(returns=MODULE_RETURNS, device=DEVICE, min_bits=MIN_BITS,
                                                   max_bits=MAX_BITS, thread_max_bits=THREAD_MAX_BITS)
    return function


@_documented
def compile(bits: int, ops=None, *, device: str = "auto", tier: str | None = None, mul: str | None = None) -> Module:
    """A module of operations on unsigned integers of `bits` bits, compiled for a device.

    Args:
        bits: the integers' width, an int from {min_bits} to {max_bits}.
        ops: operation names (["mul", "add"], or "mul,add"); None: every operation of the size.
{device}
        tier: "thread" (one integer a thread, up to {thread_max_bits} bits), "group" (threads an
            integer) or "auto" (None: by the size).
        mul: the products' method: "schoolbook", "karatsuba", "ntt" (the group tier) or "auto".

{returns}
    """
    return Module(size_source(bits, ops, tier, mul), device)


@_documented
def field(name: str | None = None, *, modulus: int | None = None, bits: int | None = None, ops=None,
          device: str = "auto", tier: str | None = None, mul: str | None = None) -> Module:
    """Arithmetic modulo a prime or any modulus: a preset's (field("secp256k1")) or yours
    (field(modulus=p)); operands below p, results mod p.

    Args:
        name: a preset's name (case, "-" and "_" ignored); or give modulus=, not both.
        modulus: any modulus above 1 of at most {thread_max_bits} bits, an int.
        bits: the width to plan the field at (at least the modulus's; None: the modulus's).
        ops: modular operation names (["modmul", "modinv"]); None: every one the modulus allows.
{device}
        tier, mul: as compile's (fields are the thread tier's).

{returns}
    """
    return Module(field_source(name, modulus, bits, ops, tier, mul), device)


@_documented
def rns_set(count: int | None = None, *, moduli=None, name: str | None = None, ops=None, device: str = "auto") -> Module:
    """Signed integers in a residue number system (after Isupov and Knyazkov, "Efficient GPU
    implementation of multiple-precision addition based on residue arithmetic"): rns_set(8) is
    8 moduli by the paper's Algorithm 3 (rns8), rns_set(moduli=[...], name="mine") a set of
    yours. Python ints go in and come out as integers (through from_binary and to_binary on
    the device); arrays are the residues' own words.

    Args:
        count: how many moduli the paper's Algorithm 3 picks, an int; or give moduli=.
        moduli: pairwise coprime moduli of yours, a list of ints, with name=.
        name: the set's name (a C++ identifier), for moduli=.
        ops: operation names (["add", "mul"]); None: every one. from_binary and to_binary are
            always there.
{device}

{returns}
    """
    return Module(rns_source(count, moduli, name, ops), device)


@_documented
def gf_field(k: int | None = None, *, prime: str | None = None, name: str | None = None, ops=None,
             device: str = "auto") -> Module:
    """A generalized Fermat prime field p = r^k + 1 (after Mohajerani, "Fast Fourier
    Transforms over prime fields of large characteristic and their implementation on GPUs"):
    gf_field(8) is the thesis' table 3.1 prime with k = 8, gf_field(prime="(2^63+2^34)^8+1",
    name="mine") one of yours. Python ints below p go in and come out as integers (through
    from_binary and to_binary on the device); arrays are elements' own digits.

    Args:
        k: a k of Mohajerani's table 3.1, an int; or give prime=.
        prime: your prime as text, "(2^w+2^u)^k+1" or "(2^w-2^u)^k+1", with name=.
        name: the field's name (a C++ identifier), for prime=.
        ops: operation names (["mul", "fft"]); None: the defaults. from_binary and to_binary
            are always there.
{device}

{returns}
    """
    return Module(gf_source(k, prime, name, ops), device)


__all__ = ["Module", "Operation", "OperandError", "compile", "field", "gf_field", "rns_set"]
