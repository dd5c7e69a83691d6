"""Printers: planned modules to text, one module per output.

Two kinds share one interface each:
- instruction-list printers (`ptx`, `host`): `function(fn) -> list[str]`, the lines of
  C++ that run one `ir.Function` (inline PTX for the device, C++ with PTX's carries for
  the host);
- file printers: a planned module to its contract (the manifest's entry: `manifest`,
  `rns`, `gf` by the module's kind) and, with that contract, to its header (`cuda`, `rns`,
  `gf`); a contract to the kernels source (`cuda.kernels`) and the runtime's table
  (`table`), whatever the kind.
`render` runs them over a request's modules, of every kind, in one loop.
"""
from __future__ import annotations

from typing import Union

from .. import names
from ..plan import GfModule, Module, RnsModule
from . import cuda, gf, manifest, rns, table

Planned = Union[Module, RnsModule, GfModule]

# A module's kind -> (its contract, its header).
_PRINTERS = {Module: (manifest.module, cuda.header), RnsModule: (rns.module, rns.header),
             GfModule: (gf.module, gf.header)}


def render(modules: list[Planned], kernels: bool = False, ptx: bool = False,
           runtime_table: bool = False) -> tuple[dict[str, str], list[dict]]:
    """The files of each module (name -> text) and the modules' contracts; with
    kernels, also a source of C-named kernels per module, for loading at run time; with
    ptx, the contracts name the PTX that nvcc will make of it; with runtime_table, the
    module's entries for the runtime's table of built-in operations."""
    files, contracts = {}, []
    for module in modules:
        contract_of, header = _PRINTERS[type(module)]
        written = {"header": names.header(module.name)}
        if kernels or ptx:
            written["kernels"] = names.kernels_source(module.name)
        if ptx:
            written["ptx"] = names.ptx(module.name)
        if runtime_table:
            written["table"] = names.table_source(module.name)
        contract = contract_of(module, written)
        files[written["header"]] = header(module, contract)
        if "kernels" in written:
            files[written["kernels"]] = cuda.kernels(contract)
        if runtime_table:
            files[written["table"]] = table.module_source(contract)
        contracts.append(contract)
    return files, contracts
