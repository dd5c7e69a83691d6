"""Printers: planned modules to text, one module per output.

Two kinds share one interface each:
- instruction-list printers (`ptx`, `host`): `function(fn) -> list[str]`, the lines of
  C++ that run one `ir.Function` (inline PTX for the device, C++ with PTX's carries for
  the host);
- file printers (`cuda`, `manifest`, `table`): a module and its contract
  (`manifest.module`) to the text of a file.
`render` runs them over a request's modules.
"""
from __future__ import annotations

from .. import names
from ..plan import Module
from . import cuda, manifest, table


def render(modules: list[Module], kernels: bool = False, ptx: bool = False,
           runtime_table: bool = False) -> tuple[dict[str, str], list[dict]]:
    """The files of each module (name -> text) and the modules' contracts; with
    kernels, also a source of C-named kernels per module, for loading at run time; with
    ptx, the contracts name the PTX that nvcc will make of it; with runtime_table, the
    module's entries for the runtime's table of built-in operations."""
    files, contracts = {}, []
    for module in modules:
        written = {"header": names.header(module.name)}
        if kernels or ptx:
            written["kernels"] = names.kernels_source(module.name)
        if ptx:
            written["ptx"] = names.ptx(module.name)
        if runtime_table:
            written["table"] = names.table_source(module.name)
        contract = manifest.module(module, written)
        files[written["header"]] = cuda.header(module, contract)
        if "kernels" in written:
            files[written["kernels"]] = cuda.kernels(contract)
        if runtime_table:
            files[written["table"]] = table.module_source(contract)
        contracts.append(contract)
    return files, contracts
