"""The TorchScript-archive campaign: mutate real archives (made with torch), import each
mutant with ember.load_torchscript, run it, classify.

Outcome classes (a leading "BUG" marks a failure):
    load:ArtifactError     the reader refused the archive, naming the problem (good)
    load:CompileError      the code (edited) does not compile; an ember error (good)
    run:same               imported; every call gave the original result
    run:changed            imported; a call returned something else (an edited weight)
    run:error              imported; a call raised a builtin or ember error
    run:timeout            imported; a call ran past its time limit (an edited loop bound)
    BUG:load:<Exception>   the import raised something other than ArtifactError or a
                           CompileError (or an IR verification/lowering error: the
                           frontend let something through)
    BUG:load:timeout       the import did not finish in time
    BUG:run:<Exception>    a call raised an error the verifier should have ruled out

Mutators: the raw ones (bit flips, truncation, splices, zip record fields) and entry
mutators that unzip the archive, edit one entry (pickle opcodes and integers of data.pkl
and constants.pkl, tokens and lines of the code, storage lengths, entry names, the
version) and zip it again.
"""

from __future__ import annotations

import io
import random
import re
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field

from ember.fuzz.artifacts import BUG_ERRORS, RUN_MEMORY, RUN_SECONDS, same_result
from ember.fuzz.mutators import RAW
from ember.fuzz.watchdog import Timeout, memory_cap, watchdog

LOAD_SECONDS = 30.0
SEED_STRIDE = 1_000_003


@dataclass
class Seed:
    name: str
    data: bytes
    cases: list
    """Argument tuples (numpy arrays) to call forward with."""


@dataclass
class ArchiveStats:
    mutants: int = 0
    classes: Counter = field(default_factory=Counter)
    bugs: list = field(default_factory=list)


# ----------------------------------------------------------------------------- seeds


def seeds() -> list:
    """Small real archives made with torch (ImportError without it): a scripted CNN with
    batch norm (.pt and .ptl), a traced one, and a scripted module with control flow,
    lists, dicts, Optional attributes and views sharing a storage."""
    import warnings

    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4 * 4 * 4, 3)

        def forward(self, x):
            x = torch.relu(self.bn(self.conv(x)))
            return self.fc(torch.flatten(x, 1))

    class Mixed(nn.Module):
        def __init__(self):
            super().__init__()
            base = torch.arange(6.0)
            self.register_buffer("base", base)
            self.register_buffer("view", base[1:4])
            self.sizes = [2, 3]
            self.table = {"a": 1.5}
            self.extra = None

        def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
            for i in range(n):
                if i % 2 == 0:
                    x = x + self.view
                else:
                    x = x * self.table["a"]
            total = 0
            for s in self.sizes:
                total += s
            return x + total

    torch.manual_seed(0)
    net = Net().eval()
    xs = [(torch.randn(1, 2, 4, 4),), (torch.randn(2, 2, 4, 4),)]
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scripted = torch.jit.script(net)
        traced = torch.jit.trace(net, xs[0], check_trace=False)
        mixed = torch.jit.script(Mixed().eval())
        for name, m, cases in (
                ("cnn_scripted", scripted, xs), ("cnn_traced", traced, xs),
                ("mixed", mixed, [(torch.randn(3), 3), (torch.randn(3), 0)])):
            buf = io.BytesIO()
            torch.jit.save(m, buf)
            np_cases = [tuple(a.numpy() if isinstance(a, torch.Tensor) else a for a in c)
                        for c in cases]
            out.append(Seed(name + ".pt", buf.getvalue(), np_cases))
            out.append(Seed(name + ".ptl", bytes(m._save_to_buffer_for_lite_interpreter()),
                            np_cases))
    return out


# ----------------------------------------------------------------------------- mutators


def _unzip(data: bytes):
    z = zipfile.ZipFile(io.BytesIO(data))
    return [(i.filename, i.compress_type, z.read(i)) for i in z.infolist()]


def _zip(entries) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, kind, raw in entries:
            z.writestr(zipfile.ZipInfo(name), raw, compress_type=kind)
    return out.getvalue()


def entry_mutator(fn):
    def mutate(rng, data):
        entries = _unzip(data)
        desc = fn(rng, entries)
        return _zip(entries), desc
    mutate.__name__ = fn.__name__
    return mutate


def _pick(rng, entries, pred):
    idx = [i for i, (n, _, _) in enumerate(entries) if pred(n)]
    return rng.choice(idx) if idx else None


_OPCODES = b"(.N\x88\x89JKM\x8aGXU)\x85\x86\x87t]l}aesuqrhjcQR\x81b\x80\x93\x8c\x94\x95iop"


@entry_mutator
def pickle_byte(rng, entries):
    """One byte of data.pkl or constants.pkl replaced by an opcode or a random byte."""
    i = _pick(rng, entries, lambda n: n.endswith(("data.pkl", "constants.pkl")))
    name, kind, raw = entries[i]
    b = bytearray(raw)
    pos = rng.randrange(len(b))
    b[pos] = rng.choice(_OPCODES) if rng.random() < 0.6 else rng.randrange(256)
    entries[i] = (name, kind, bytes(b))
    return f"{name.split('/', 1)[1]} byte {pos} -> {b[pos]:#04x}"


@entry_mutator
def pickle_int(rng, entries):
    """An integer argument (a size, stride, offset, numel, memo index) changed."""
    i = _pick(rng, entries, lambda n: n.endswith(("data.pkl", "constants.pkl")))
    name, kind, raw = entries[i]
    spots = [m.start() for m in re.finditer(rb"[KMJhq]", raw)]
    if not spots:
        return "no int opcodes"
    pos = rng.choice(spots)
    b = bytearray(raw)
    width = {ord("K"): 1, ord("M"): 2, ord("J"): 4, ord("h"): 1, ord("q"): 1}[b[pos]]
    value = rng.choice((0, 1, 2, 255, rng.randrange(1 << (8 * width))))
    b[pos + 1:pos + 1 + width] = value.to_bytes(width, "little")[:len(b[pos + 1:pos + 1 +
                                                                         width])]
    entries[i] = (name, kind, bytes(b))
    return f"{name.split('/', 1)[1]} int at {pos} -> {value}"


@entry_mutator
def pickle_text(rng, entries):
    """A string in a pickle (a global's name, a storage key, an attribute) edited."""
    i = _pick(rng, entries, lambda n: n.endswith(("data.pkl", "constants.pkl")))
    name, kind, raw = entries[i]
    words = [m for m in re.finditer(rb"[A-Za-z_][A-Za-z0-9_.]{2,}", raw)]
    if not words:
        return "no words"
    m = rng.choice(words)
    new = rng.choice((b"os", b"system", b"eval", b"../x", b"999", b"weight", b"__torch__",
                      b"BFloat16Storage", m.group()[::-1], m.group()[:-1] + b"X"))
    new = new[:len(m.group())].ljust(len(m.group()), b"_")  # keep lengths consistent
    entries[i] = (name, kind, raw[:m.start()] + new + raw[m.end():])
    return f"{name.split('/', 1)[1]} {m.group()[:30]!r} -> {new[:30]!r}"


_CODE_SWAPS = ("torch.relu", "torch.linear", "torch.conv2d", "torch.add", "torch.foo",
               "ops.prim.RaiseException", "annotate", "unchecked_cast", "uninitialized",
               "CONSTANTS.c7", "__torch__.nope", "getattr(self, \"9\")", "self.missing",
               "9223372036854775807", "-1", "None", "[]", "(1, 2)", "\"s\"", "fork")


@entry_mutator
def code_token(rng, entries):
    """A name, number or expression of the archive's code replaced by another."""
    i = _pick(rng, entries, lambda n: n.endswith(".py"))
    name, kind, raw = entries[i]
    text = raw.decode("utf-8", "replace")
    tokens = list(re.finditer(r"[A-Za-z_][A-Za-z0-9_.]*|\d+\.?\d*", text))
    m = rng.choice(tokens)
    new = rng.choice(_CODE_SWAPS + tuple(t.group() for t in rng.sample(tokens,
                                                                      min(3, len(tokens)))))
    entries[i] = (name, kind, (text[:m.start()] + new + text[m.end():]).encode())
    return f"{name.split('/code/', 1)[-1]} {m.group()[:30]!r} -> {new!r}"


@entry_mutator
def code_line(rng, entries):
    """A line of the code deleted, duplicated or re-indented."""
    i = _pick(rng, entries, lambda n: n.endswith(".py"))
    name, kind, raw = entries[i]
    lines = raw.decode("utf-8", "replace").split("\n")
    k = rng.randrange(len(lines))
    how = rng.choice(("delete", "duplicate", "indent", "dedent"))
    if how == "delete":
        del lines[k]
    elif how == "duplicate":
        lines.insert(k, lines[k])
    elif how == "indent":
        lines[k] = "  " + lines[k]
    else:
        lines[k] = lines[k][2:]
    entries[i] = (name, kind, "\n".join(lines).encode())
    return f"{name.split('/code/', 1)[-1]} line {k + 1} {how}d"


@entry_mutator
def storage_entry(rng, entries):
    """A storage shortened, lengthened, removed or renamed."""
    i = _pick(rng, entries, lambda n: "/data/" in n or "/constants/" in n)
    if i is None:
        return "no storage"
    name, kind, raw = entries[i]
    how = rng.choice(("shorten", "lengthen", "remove", "rename", "empty"))
    if how == "shorten":
        entries[i] = (name, kind, raw[:rng.randrange(max(1, len(raw)))])
    elif how == "lengthen":
        entries[i] = (name, kind, raw + bytes(rng.randint(1, 64)))
    elif how == "remove":
        del entries[i]
    elif how == "rename":
        entries[i] = (name.rsplit("/", 1)[0] + "/" + str(rng.randrange(100)), kind, raw)
    else:
        entries[i] = (name, kind, b"")
    return f"{name.split('/', 1)[1]} {how}"


@entry_mutator
def entry_name(rng, entries):
    """An entry renamed out of the archive, into another folder, or duplicated."""
    i = rng.randrange(len(entries))
    name, kind, raw = entries[i]
    top, rest = name.split("/", 1)
    new = rng.choice((f"../{rest}", f"/{rest}", f"{top}/../{rest}", f"other/{rest}",
                      f"{top}/{rest}\\x", f"{top}//{rest}", name))
    if new == name:
        entries.append((name, kind, raw))
        return f"{rest} duplicated"
    entries[i] = (new, kind, raw)
    return f"{rest} renamed {new[:40]!r}"


@entry_mutator
def version_entry(rng, entries):
    i = _pick(rng, entries, lambda n: n.endswith("version") or n.endswith("byteorder"))
    name, kind, raw = entries[i]
    new = rng.choice((b"0", b"11", b"-1", b"3\n", b"x", b"", b"99999", b"big", b"little"))
    entries[i] = (name, kind, new)
    return f"{name.split('/', 1)[1]} -> {new!r}"


ENTRY = (pickle_byte, pickle_int, pickle_text, code_token, code_line, storage_entry,
         entry_name, version_entry)
MUTATORS = RAW + ENTRY + ENTRY


# ----------------------------------------------------------------------------- the campaign


def classify(data: bytes, s: Seed, expected) -> tuple:
    from ember.errors import ArtifactError, CompileError, IRParseError, LoweringError, \
        VerifyError
    from ember.torchscript.load import load_torchscript

    try:
        with watchdog(LOAD_SECONDS), memory_cap(RUN_MEMORY):
            loaded = load_torchscript(data)
    except ArtifactError:
        return "load:ArtifactError", ""
    except (IRParseError, VerifyError, LoweringError) as e:
        return f"BUG:load:{type(e).__name__}", str(e)[:300]
    except CompileError:
        return "load:CompileError", ""
    except Timeout:
        return "BUG:load:timeout", f"import took over {LOAD_SECONDS} s"
    except Exception as e:  # noqa: BLE001 - anything else at import is a bug
        return f"BUG:load:{type(e).__name__}", str(e)[:300]
    worst = ("run:same", "")
    rank = {"run:same": 0, "run:changed": 1, "run:error": 2, "run:timeout": 3}
    for args, want in zip(s.cases, expected):
        got = _call(loaded, args)
        if got[0] == "raise" and got[1] in BUG_ERRORS:
            return f"BUG:run:{got[1]}", got[2][:300]
        cls = "run:same" if same_result(want, got) else \
            {"ok": "run:changed", "raise": "run:error", "timeout": "run:timeout"}[got[0]]
        if rank[cls] > rank[worst[0]]:
            worst = (cls, f"{got!r:.200}")
    return worst


def _call(loaded, args) -> tuple:
    import copy
    try:
        with watchdog(RUN_SECONDS), memory_cap(RUN_MEMORY):
            return ("ok", loaded(*copy.deepcopy(args)))
    except Timeout:
        return ("timeout",)
    except RecursionError as e:
        return ("raise", "RecursionError", str(e))
    except Exception as e:  # noqa: BLE001 - the exception is the call's outcome
        return ("raise", type(e).__name__, str(e))


def run_archives(seed: int, seed_list, count: int | None = None,
                 seconds: float | None = None, out_dir: str | None = None,
                 progress=None) -> ArchiveStats:
    from ember.torchscript.load import load_torchscript

    expected = {}
    for s in seed_list:
        m = load_torchscript(s.data)
        expected[s.name] = [_call(m, a) for a in s.cases]
    stats = ArchiveStats()
    start = time.monotonic()
    while (count is None or stats.mutants < count) and \
            (seconds is None or time.monotonic() - start < seconds):
        rng = random.Random(seed * SEED_STRIDE + stats.mutants)
        s = rng.choice(seed_list)
        mutate = rng.choice(MUTATORS)
        try:
            data, desc = mutate(rng, s.data)
        except (ValueError, IndexError, TypeError):
            data, desc = s.data[:len(s.data) // 2], "mutator fell back to a truncation"
        cls, detail = classify(data, s, expected[s.name])
        stats.mutants += 1
        stats.classes[cls] += 1
        if cls.startswith("BUG"):
            path = _save(out_dir, data, s.name, stats.mutants, mutate.__name__)
            stats.bugs.append((s.name, f"{mutate.__name__}: {desc}", cls, detail, path))
        if progress and stats.mutants % 500 == 0:
            progress(stats, time.monotonic() - start)
    return stats


def _save(out_dir, data, name, k, mutator):
    import os
    if not out_dir:
        return None
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"mutant_{k}_{mutator}_{name}")
    with open(path, "wb") as fh:
        fh.write(data)
    return path
