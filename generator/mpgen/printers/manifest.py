"""The manifest printer: every operation's contract as data (JSON), written once here.

Everything else reads it: the header's shape constants and the kernels source are
printed from it (printers/cuda.py), and the runtime, mpgen-run, on-demand compilation
and CMake parse the JSON. In an output folder it is also mpgen's record of the files it
wrote there (output.py).
"""
from __future__ import annotations

import json

from .. import names
from ..fields import Field
from ..plan import Module, PlannedOp
from ..size import HOST64, limbs_for
from ..thread.powers import domain_operations
from ..version import __version__
from . import host

SCHEMA = 6  # raised on any change a reader must know about (2: the group tier's launch,
# 3: shared_bytes, 4: the operands' roles (a modulus given at run time) and the result's parts,
# 5: what a module is (kind: size, field, rns, gf) apart from how it runs (tier: thread, group),
# 6: a group spanning blocks (launch: blocks_per_instance, launch_groups; a cooperative launch))
# Records an output folder may hold: those of earlier schemas list their modules' files
# alike, so that a folder (a build's) can be generated into again.
RECORD_SCHEMAS = (1, 2, 3, 4, 5, 6)


def operation(p: PlannedOp, m: Module) -> dict:
    module = p.size.name
    return {
        "name": p.op.name,
        "symbol": p.op.cpp_name,  # the struct in the header's namespace
        "kernel": names.kernel(module, p.op.name),  # the C-named batch kernel
        # the one over operands and results in arrays of their own (a kernels source holds it
        # where MPGEN_ARRAYS_ENTRIES is defined)
        "arrays_kernel": names.arrays_kernel(module, p.op.name),
        "summary": p.op.summary,
        # a modulus operand says whether it must be odd (Montgomery form; modinv's divsteps, which
        # start from f = p odd and divide by 2^30 modulo p) or may be any
        "operands": [{"bits": bits, "limbs": limbs, "below_modulus": below, "role": role,
                      **({"odd": p.op.odd_modulus != "", "odd_because": p.op.odd_modulus} if role == "modulus" else {})}
                     for bits, limbs, below, role in zip(p.operand_bits, p.operand_limbs, p.below_modulus,
                                                         p.operand_roles)],
        "optional_operands": p.op.optional,  # trailing operands that may be left out (as 0)
        # parts: the result's numbers, of limbs / parts limbs each (div_qr: quotient, remainder)
        "result": {"limbs": p.result_limbs, "parts": p.op.parts, "flag": bool(p.op.flag), "signed": p.op.signed},
        "in_words": p.in_words,
        "out_words": p.out_words,
        "launch": p.tier.launch(p.in_words, p.out_words, p.shared_bytes),
        "multiplies": p.multiplies,
        "instructions": p.instructions,  # per thread
        "loop": p.loop,
        "host64": host64(p, m),
    }


def host64(p: PlannedOp, m: Module) -> dict | None:
    """The operation's host64: its list at 64-bit limbs (printed where it is short enough to
    compile straight), or a field's loop over its products' 64-bit lists (where they all have
    one); its words, each operand and the result in 64-bit limbs; else None."""
    if p.loop:
        ops = {q.op.name: q for q in m.ops}
        if 64 not in p.op.word_bits or not isinstance(p.size, Field) or \
                not all(host64(ops[name], m) for name in domain_operations(p.size)):
            return None
        instructions = None
    elif p.fn64 is None or not host.compiled(p.fn64):
        return None
    else:
        instructions = len(p.fn64.body)
    operand_limbs = [limbs_for(bits, 64) for bits in p.operand_bits]
    result_limbs = p.op.result_limbs(p.size.at(HOST64))
    # lanes: instances a CPU batch runs at once (host64_lanes), each operand's limbs lane by lane
    return {"in_words": sum(operand_limbs), "out_words": result_limbs + p.op.flag,
            "operand_limbs": operand_limbs, "result_limbs": result_limbs, "instructions": instructions,
            "lanes": p.op.lanes64 if p.loop else 1}


def module(m: Module, files: dict[str, str]) -> dict:
    size = m.size
    entry = {"name": m.name, "kind": "field" if isinstance(size, Field) else "size", "tier": size.tier.name, "bits": size.bits, "limbs": size.limbs,
             "mul": size.mul, "files": files, "field": None}
    if isinstance(size, Field):
        field = {"modulus": f"{size.modulus:#x}", "reduction": size.reduction,
                 "reduction64": size.at(HOST64).reduction}
        if size.modulus % 2:
            field.update(minus_inverse=f"{size.minus_inverse:#010x}",
                         radix_squared=f"{size.radix_squared:#x}")
        entry["field"] = field
    entry["operations"] = [operation(p, m) for p in m.ops]
    return entry


def document(modules: list[dict]) -> dict:
    return {"schema": SCHEMA, "mpgen": __version__, "modules": modules}


def text(document_: dict) -> str:
    """Readable and short: one line per operation."""
    def operations(module: dict) -> str:
        lines = ",\n".join("    " + json.dumps(op, separators=(",", ":")) for op in module["operations"])
        return f'[\n{lines}\n   ]'

    modules = []
    for module in document_["modules"]:
        head = {k: v for k, v in module.items() if k != "operations"}
        body = json.dumps(head, indent=1)[:-2]  # reopened to add the operations
        modules.append(f'{body},\n "operations": {operations(module)}\n}}'.replace("\n", "\n  "))
    head = json.dumps({k: v for k, v in document_.items() if k != "modules"})[:-1]
    return head + ', "modules": [\n  ' + ",\n  ".join(modules) + "\n]}\n"


def compact(module_: dict) -> str:
    """One module's manifest on one line, for embedding in a kernels source."""
    return json.dumps(document([module_]), separators=(",", ":"))
