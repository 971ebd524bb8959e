"""ember.mobile: the lite runtime. Loads artifacts and runs them with numpy alone.

    from ember import mobile
    m = mobile.load("model.ember")   # read, check, verify, translate
    y = m(x)                         # run the default entry point
    m.other_method(x)                # other entry points are attributes

Imports only the standard library, numpy, ember.ops and ember.errors (a test
proves it). Nothing in an artifact is ever executed as Python: bytecode is
verified, then translated through the `ast` module from fixed templates.
"""

from __future__ import annotations

import os

from ember.mobile.artifact import load_program, read_program
from ember.mobile.boundary import LoadedFunction, LoadedModule
from ember.mobile.disasm import disassemble
from ember.mobile.program import ClassInfo, Function, Program
from ember.mobile.runtime import build


def load(path, verify: bool | None = None) -> LoadedModule:
    """Load an artifact (a path or a binary file object); ArtifactError if it is corrupt,
    too new or needs missing ops. A file of 1 MiB or more is mapped read-only, not read:
    its tensors are views of the mapping. verify=True also hashes the tensor data against
    the artifact's checksum (None, the default: only when it is at most 16 MiB)."""
    return build(load_program(path, verify))


def loads(data: bytes, verify: bool | None = None) -> LoadedModule:
    """Load an artifact from its bytes (same checks as load; tensors view `data`)."""
    return build(read_program(data, verify))


def describe(path) -> str:
    """A human-readable description of an artifact: signatures, operators, sizes, code."""
    program = load_program(path)
    lines = [f"artifact {path} ({os.path.getsize(path):,} bytes), produced by {program.producer}"]
    lines.append("entries:")
    default = program.default_entry_name()
    for name, i in program.entries.items():
        f = program.functions[i]
        sig = ", ".join(f"{p}: {t}" for p, t in zip(f.params, f.param_types))
        mark = " (default)" if name == default else ""
        lines.append(f"  {name}({sig}) -> {f.ret_type}{mark}")
    lines.append(f"operators ({len(program.operators)}): {', '.join(program.operators)}")
    nbytes = sum(a.nbytes for _, a in program.tensors)
    lines.append(f"tensors: {len(program.tensors)} ({nbytes:,} bytes)")
    words = sum(len(f.code) for f in program.functions)
    lines.append(f"functions: {len(program.functions)}, {words} code words")
    lines.extend(fused_groups(program))
    lines.append("")
    lines.append(disassemble(program))
    return "\n".join(lines)


def fused_groups(program) -> list[str]:
    """One line per FUSED instruction: where it is and the operators of its group."""
    from ember.mobile.opcodes import Op, decode

    rows = []
    for f in program.functions:
        pc = 0
        while pc < len(f.code):
            op, args, nxt = decode(f.code, pc)
            if op is Op.FUSED:
                _, n_in, consts, steps, outputs = f.consts[args[1]]
                line = f.location(pc)[1]
                names = ", ".join(name.removeprefix("tensor.") for name, _ in steps)
                rows.append(f"  {f.display_name} line {line}: {names} ({n_in} inputs, "
                            f"{len(outputs)} output{'s' * (len(outputs) != 1)})")
            pc = nxt
    return [f"fused groups ({len(rows)}):"] + rows if rows else []


__all__ = ["load", "loads", "build", "describe", "disassemble", "load_program", "read_program",
           "Program", "Function", "ClassInfo", "LoadedModule", "LoadedFunction"]
