"""Entry mutators: unzip an artifact, edit the manifest or one entry, re-zip with fresh
checksums (stale ones now and then), so that the edit reaches the reader's schema
checks, the bytecode verifier, the translator and the kernels."""

from __future__ import annotations

import json
import struct

from ember.fuzz.mutators import RAW, WORD_BOUNDARY, WRONG_TYPES, int_value, pack, unpack


def entry_mutator(fn):
    """Wrap fn(rng, manifest, files) -> description into a bytes mutator."""

    def mutate(rng, data):
        manifest, files = unpack(data)
        desc = fn(rng, manifest, files)
        stale = rng.random() < 0.05
        return pack(manifest, files, checksums=not stale), desc + (" (stale checksums)"
                                                                    if stale else "")
    mutate.__name__ = fn.__name__
    return mutate


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


def _at(obj, path):
    for p in path:
        obj = obj[p]
    return obj


@entry_mutator
def manifest_field(rng, m, files):
    """Replace, delete or retype one value anywhere in the manifest."""
    paths = [p for p in _paths(m) if p and p[0] != "checksums"]
    path = rng.choice(paths)
    parent, key = _at(m, path[:-1]), path[-1]
    old = parent[key]
    r = rng.random()
    if r < 0.15 and isinstance(parent, dict):
        del parent[key]
        return f"manifest {list(path)} deleted"
    if r < 0.55 and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = int_value(rng, old)
    elif r < 0.65 and isinstance(old, str):
        parent[key] = rng.choice(("", old + "x", old[:-1], "nosuch.op", "i64", "list<",
                                  "\udcff".encode("utf-8", "surrogatepass").decode("latin-1")))
    else:
        parent[key] = rng.choice(WRONG_TYPES)
    return f"manifest {list(path)}: {old!r:.40} -> {parent[key]!r:.40}"


@entry_mutator
def manifest_header(rng, m, files):
    """Format name, version, reader range, byte order, dtype sizes."""
    key = rng.choice(("version", "reads", "format", "byteorder", "dtype_sizes", "producer"))
    value = {"version": lambda: int_value(rng, m.get("version")),
             "reads": lambda: [int_value(rng), int_value(rng)],
             "format": lambda: rng.choice(("ember-artifact ", "", "ember")),
             "byteorder": lambda: rng.choice(("big", "", None)),
             "dtype_sizes": lambda: {"float32": rng.choice((2, 4, 8)), "int64": 8},
             "producer": lambda: rng.choice((1, None, "x" * 10000))}[key]()
    m[key] = value
    return f"manifest {key} = {value!r:.40}"


def _words(files, name="code.bin"):
    raw = files[name]
    return list(struct.unpack(f"<{len(raw) // 4}i", raw[:len(raw) // 4 * 4]))


def _set_words(files, words, name="code.bin"):
    wrapped = [(w + (1 << 31)) % (1 << 32) - (1 << 31) for w in words]  # int32 words
    files[name] = struct.pack(f"<{len(wrapped)}i", *wrapped)


@entry_mutator
def code_word(rng, m, files):
    """One instruction word: an opcode, register, constant, operator or jump index."""
    words = _words(files)
    if not words:
        return "no code"
    f = rng.choice(m["functions"])
    lo, hi = f["code"]
    i = rng.randrange(lo, hi) if hi > lo else rng.randrange(len(words))
    old = words[i]
    r = rng.random()
    if r < 0.3:
        words[i] = old + rng.choice((-2, -1, 1, 2))
    elif r < 0.5:
        words[i] = rng.randrange(0, 32)
    elif r < 0.7:
        words[i] = f["nregs"] + rng.choice((-1, 0, 1))
    else:
        words[i] = rng.choice(WORD_BOUNDARY)
    _set_words(files, words)
    return f"code word {i} ({f['name']}): {old} -> {words[i]}"


def _operand_slots(words, lo, hi):
    """(word index, operand kind) of every fixed operand of the instructions in
    words[lo:hi] (decoded with the opcode layout; stops at anything undecodable)."""
    from ember.mobile.opcodes import LAYOUT, Op

    out, pc = [], lo
    while pc < hi:
        try:
            op = Op(words[pc])
        except ValueError:
            break
        i = pc + 1
        for k in LAYOUT[op]:
            if k[0] == "*":
                n = words[i] if i < hi else 0
                width = 2 * n if k == "*p" else n
                out += [(j, k[1]) for j in range(i + 1, min(hi, i + 1 + max(width, 0)))]
                i += 1 + max(width, 0)
            else:
                out.append((i, k))
                i += 1
        pc = i
    return out


@entry_mutator
def code_operand(rng, m, files):
    """One operand set to another *valid* index of its kind (a register, constant,
    operator or function that exists), so the mutant passes the index checks and
    reaches definite assignment, translation and the kernels."""
    words = _words(files)
    f = rng.choice(m["functions"])
    lo, hi = f["code"]
    slots = [(i, k) for i, k in _operand_slots(words, lo, hi) if k in "rkfn"]
    if not slots:
        return "no operands"
    i, k = rng.choice(slots)
    consts = json.loads(files["consts.json"])
    fi = m["functions"].index(f)
    limit = {"r": f["nregs"], "k": len(consts[fi]) if fi < len(consts) else 1,
             "f": len(m["operators"]), "n": len(m["functions"])}[k]
    old, words[i] = words[i], rng.randrange(max(limit, 1))
    _set_words(files, words)
    return f"operand {k} at word {i} ({f['name']}): {old} -> {words[i]}"


@entry_mutator
def code_shift(rng, m, files):
    """Insert or delete a word (later instructions and function ranges shift)."""
    words = _words(files)
    i = rng.randrange(len(words) + 1)
    if rng.random() < 0.5 and words:
        del words[min(i, len(words) - 1)]
        what = "deleted"
    else:
        words.insert(i, rng.choice(WORD_BOUNDARY + (16, 17, 18, 23, 25)))
        what = "inserted"
    _set_words(files, words)
    return f"code word {what} at {i}"


@entry_mutator
def consts_edit(rng, m, files):
    consts = json.loads(files["consts.json"])
    cands = [(i, j) for i, fc in enumerate(consts) for j in range(len(fc))]
    if not cands:
        return "no constants"
    i, j = rng.choice(cands)
    old = consts[i][j]
    tag = rng.choice(("i", "f", "s", "b", "n", "t", "y", "x"))
    value = {"i": int_value(rng), "f": rng.choice(("0x1p+1", "nan", "inf", "zz", 3)),
             "s": rng.choice(("", "abc", "é" * 50)), "b": rng.choice((True, 0)),
             "n": None, "t": int_value(rng), "y": rng.choice(("i64", "list<i64>", "!X", "(")),
             "x": 1}[tag]
    consts[i][j] = [tag] if tag == "n" and rng.random() < 0.8 else [tag, value]
    files["consts.json"] = json.dumps(consts).encode()
    return f"constant {i}.{j}: {old!r:.40} -> {consts[i][j]!r:.40}"


@entry_mutator
def lines_word(rng, m, files):
    words = _words(files, "lines.bin")
    if not words:
        return "no line table"
    i = rng.randrange(len(words))
    old, words[i] = words[i], int_value(rng, words[i]) if rng.random() < 0.5 else \
        rng.choice(WORD_BOUNDARY)
    _set_words(files, words, "lines.bin")
    return f"lines word {i}: {old} -> {words[i]}"


@entry_mutator
def tensor_record(rng, m, files):
    recs = m.get("tensors") or []
    if not recs:
        return "no tensors"
    k = rng.randrange(len(recs))
    rec = recs[k]
    key = rng.choice(("offset", "nbytes", "shape", "dtype", "name", "shape+nbytes"))
    if key == "dtype":
        rec[key] = rng.choice(("float64", "int8", "bool", "complex64", "float16", "<f4"))
    elif key == "shape":
        rec[key] = rng.choice(([], [0], [-1], [1 << 40, 1 << 40], list(reversed(rec["shape"])),
                               rec["shape"] + [1], [1] * 20))
    elif key == "shape+nbytes":
        rec["shape"] = [rng.choice((1 << 20, 1 << 31, 3))] * 2
        rec["nbytes"] = 4 * rec["shape"][0] * rec["shape"][1]
    elif key == "name":
        rec[key] = rng.choice(("", recs[0]["name"], "x" * 1000))
    else:
        rec[key] = int_value(rng, rec[key])
    return f"tensor record {k}: {key} -> {rec.get(key, rec['shape'])!r:.40}"


@entry_mutator
def tensor_bytes(rng, m, files):
    blob = bytearray(files["tensors.bin"])
    if not blob:
        return "no tensor data"
    for _ in range(rng.randint(1, 4)):
        blob[rng.randrange(len(blob))] = rng.choice((0, 0xFF, 0x7F, 0x80, rng.randrange(256)))
    files["tensors.bin"] = bytes(blob)
    return "tensor data bytes changed"


@entry_mutator
def entries_edit(rng, m, files):
    """Drop, add, rename or empty a zip entry."""
    name = rng.choice(sorted(files))
    r = rng.random()
    if r < 0.3:
        del files[name]
        return f"entry {name} dropped"
    if r < 0.5:
        files[rng.choice(("extra", "source/99", "code.bin.bak"))] = b"x"
        return "entry added"
    if r < 0.7:
        files[name] = b""
        return f"entry {name} emptied"
    files[name] = files[name] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 9)))
    return f"entry {name} extended"


@entry_mutator
def function_record(rng, m, files):
    """Signature, register count, code/lines ranges and defaults of one function."""
    f = rng.choice(m["functions"])
    key = rng.choice(("nregs", "code", "lines", "params", "param_types", "ret_type",
                      "defaults", "name"))
    if key == "nregs":
        f[key] = rng.choice((0, len(f["params"]), f["nregs"] - 1, 1 << 16, (1 << 16) + 1))
    elif key in ("code", "lines"):
        a, b = f[key]
        f[key] = rng.choice(([a, b + 1], [a - 1, b], [b, a], [a, a], [0, 1 << 30], [a]))
    elif key == "params":
        f[key] = f[key][:-1] if f[key] and rng.random() < 0.5 else f[key] + ["extra"]
    elif key == "param_types":
        f[key] = [rng.choice(("i64", "f64", "str", "list<i64>", "tensor<f32, [2, 3]>",
                              "bad")) for _ in f[key]]
    elif key == "ret_type":
        f[key] = rng.choice(("i64", "none", "tuple<>", "dict<str, i64>", "!Nope"))
    elif key == "defaults":
        f[key] = [rng.choice((["i", 1], ["s", "x"], ["n"], ["t", 0], ["zz"]))]
    else:
        f[key] = rng.choice(("", "f", "x" * 500))
    return f"function {f.get('name', '?')!r:.20}: {key} -> {f[key]!r:.40}"


def manifest_text(rng, data):
    """The manifest's JSON text itself: cut short, a character inserted or replaced."""
    m, files = unpack(data)
    pack(m, files)  # fresh checksums into m
    text = json.dumps(m)
    i = rng.randrange(len(text))
    r = rng.random()
    if r < 0.3:
        text, what = text[:i], f"cut at {i}"
    else:
        ch = rng.choice('{}[]",:0-9e.\\ \x00é')
        text = text[:i] + ch + text[i + (r < 0.65):]
        what = f"{ch!r} at {i}"
    return pack(m, files, checksums=False, raw_manifest=text.encode()), f"manifest text {what}"


ENTRY = (manifest_field, manifest_text, manifest_header, code_word, code_word, code_operand,
         code_operand, code_operand, code_shift, consts_edit, lines_word, tensor_record,
         tensor_bytes, entries_edit, function_record, function_record)
MUTATORS = RAW + ENTRY + ENTRY
"""Every mutator, by weight (entry mutators twice: they reach deeper)."""
