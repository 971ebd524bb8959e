"""A restricted reader of TorchScript's pickles (data.pkl, constants.pkl): protocol 2, the
opcodes torch's C++ pickler writes, and the globals TorchScript archives use. It builds
inert values only: no object of an archive-named class is made and nothing is called.

Values: None, bool, int, float, str, tuple, list, dict (OrderedDict too), and
    Obj       an instance of a `__torch__.` class (NEWOBJ + BUILD): qualname and state
    TensorRef a tensor (`torch._utils._rebuild_tensor_v2`): storage, offset, size, stride
    Storage   a persistent id ('storage', torch.FloatStorage, key, location, numel)
Python's `pickle` is never used. Every malformation is an ArtifactError naming it; every
loop is bounded by the input's length.
"""

from __future__ import annotations

import struct

from ember.errors import ArtifactError

MAX_DEPTH = 200
"""Deepest nesting of containers accepted (a real model nests a few levels per module)."""
MAX_MEMO = 1 << 20

STORAGE_DTYPES = {
    "FloatStorage": "float32", "DoubleStorage": "float64", "HalfStorage": "float16",
    "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
    "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool",
    "ComplexFloatStorage": "complex64", "ComplexDoubleStorage": "complex128",
}
REFUSED_STORAGES = {
    "BFloat16Storage": "bfloat16", "ComplexHalfStorage": "complex32",
    "QInt8Storage": "qint8", "QUInt8Storage": "quint8", "QInt32Storage": "qint32",
    "QUInt4x2Storage": "quint4x2", "QUInt2x4Storage": "quint2x4",
    "Float8_e5m2Storage": "float8_e5m2", "Float8_e4m3fnStorage": "float8_e4m3fn",
    "Float8_e5m2fnuzStorage": "float8_e5m2fnuz", "Float8_e4m3fnuzStorage": "float8_e4m3fnuz",
    "UInt16Storage": "uint16", "UInt32Storage": "uint32", "UInt64Storage": "uint64",
}
_LIST_BUILDERS = {"build_intlist": int, "build_doublelist": float, "build_boollist": bool,
                  "build_tensorlist": None}


class Obj:
    """An instance of a `__torch__.` class as data: its qualified name and its state (a dict
    of attributes, or whatever __setstate__ receives)."""

    __slots__ = ("qualname", "state", "has_state")

    def __init__(self, qualname: str):
        self.qualname = qualname
        self.state = None
        self.has_state = False

    def __repr__(self):
        return f"<Obj {self.qualname}>"


class Storage:
    __slots__ = ("dtype", "key", "location", "numel")

    def __init__(self, dtype, key, location, numel):
        self.dtype, self.key, self.location, self.numel = dtype, key, location, numel


class TensorRef:
    __slots__ = ("storage", "offset", "size", "stride", "requires_grad")

    def __init__(self, storage, offset, size, stride, requires_grad):
        self.storage, self.offset, self.size = storage, offset, size
        self.stride, self.requires_grad = stride, requires_grad


class _Global:
    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name

    @property
    def full(self):
        return f"{self.module}.{self.name}"


class _StorageType:
    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype


class _Mark:
    pass


_MARK = _Mark()


def unpickle(data: bytes, what: str = "data.pkl"):
    """The value a TorchScript pickle holds, built from inert parts."""
    try:
        value = _Machine(data, what).run()
    except ArtifactError:
        raise
    except (struct.error, IndexError, ValueError, UnicodeDecodeError, OverflowError,
            RecursionError, MemoryError, TypeError) as e:
        raise ArtifactError(f"{what} is corrupt: {type(e).__name__}: {e}") from None
    check_shape(value, what)
    return value


def check_shape(value, what: str) -> None:
    """No cycles (a list holding itself through the memo) and no nesting deeper than
    MAX_DEPTH; iterative, so hostile depth cannot exhaust Python's stack."""
    stack = [(value, 0, False)]
    open_ids: set = set()
    done: set = set()
    while stack:
        v, depth, leaving = stack.pop()
        if leaving:
            open_ids.discard(id(v))
            done.add(id(v))
            continue
        if isinstance(v, Obj):
            v = v.state
            if v is None:
                continue
        if not isinstance(v, (list, tuple, dict)):
            continue
        if id(v) in open_ids:
            raise ArtifactError(f"{what} holds a container that contains itself")
        if id(v) in done:
            continue
        if depth > MAX_DEPTH:
            raise ArtifactError(f"{what} nests containers more than {MAX_DEPTH} deep")
        open_ids.add(id(v))
        stack.append((v, depth, True))
        items = list(v.keys()) + list(v.values()) if isinstance(v, dict) else v
        for x in items:
            stack.append((x, depth + 1, False))


class _Machine:
    def __init__(self, data: bytes, what: str):
        self.data = data
        self.what = what
        self.pos = 0
        self.stack: list = []
        self.marks: list[int] = []
        self.memo: dict[int, object] = {}
        self.checked: set = set()
        """(id of a list, builder) pairs already checked (a memo GET may pass one list to
        many builders; checking it once keeps the reader linear)."""

    # -- reading --------------------------------------------------------------------------------
    def fail(self, msg: str):
        raise ArtifactError(f"{self.what}: {msg} (at byte {max(self.pos - 1, 0)})")

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            self.fail("truncated pickle")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def line(self) -> str:
        end = self.data.find(b"\n", self.pos, self.pos + 1024)
        if end < 0:
            self.fail("unterminated GLOBAL name")
        s = self.data[self.pos:end]
        self.pos = end + 1
        try:
            return s.decode("ascii")
        except UnicodeDecodeError:
            self.fail("GLOBAL name is not ASCII")

    def pop(self):
        if not self.stack or self.stack[-1] is _MARK:
            self.fail("pickle stack underflow")
        return self.stack.pop()

    def pop_mark(self) -> list:
        if not self.marks:
            self.fail("no MARK to pop to")
        at = self.marks.pop()
        if at >= len(self.stack) or self.stack[at] is not _MARK:
            self.fail("corrupt MARK")
        items = self.stack[at + 1:]
        del self.stack[at:]
        return items

    def push(self, v):
        if len(self.stack) > len(self.data) + 16:
            self.fail("stack larger than the pickle")
        self.stack.append(v)

    # -- the loop ---------------------------------------------------------------------------------
    def run(self):
        if self.data[:2] != b"\x80\x02":
            self.pos = 1
            self.fail("not a protocol-2 pickle (TorchScript archives write protocol 2)")
        self.pos = 2
        n = len(self.data)
        while self.pos < n:
            op = self.data[self.pos]
            self.pos += 1
            handler = _OPS.get(op)
            if handler is None:
                self.fail(f"opcode 0x{op:02x} ({_NAMES.get(op, 'unknown')}) is not one "
                          "TorchScript archives use")
            if handler(self) is _STOP:
                if len(self.stack) != 1 or self.marks:
                    self.fail("STOP with a malformed stack")
                return self.stack[0]
        self.fail("pickle ends without STOP")

    # -- opcodes --------------------------------------------------------------------------------
    def op_mark(self):
        self.marks.append(len(self.stack))
        self.stack.append(_MARK)

    def op_stop(self):
        return _STOP

    def op_none(self):
        self.push(None)

    def op_true(self):
        self.push(True)

    def op_false(self):
        self.push(False)

    def op_binint(self):
        self.push(struct.unpack("<i", self.take(4))[0])

    def op_binint1(self):
        self.push(self.take(1)[0])

    def op_binint2(self):
        self.push(struct.unpack("<H", self.take(2))[0])

    def op_long1(self):
        k = self.take(1)[0]
        if k > 8:
            self.fail("LONG1 integer wider than 64 bits")
        self.push(int.from_bytes(self.take(k), "little", signed=True))

    def op_binfloat(self):
        self.push(struct.unpack(">d", self.take(8))[0])

    def op_binunicode(self):
        k = struct.unpack("<I", self.take(4))[0]
        self.push(self.take(k).decode("utf-8"))

    def op_short_binstring(self):
        k = self.take(1)[0]
        self.push(self.take(k).decode("utf-8"))

    def op_binstring(self):
        k = struct.unpack("<i", self.take(4))[0]
        self.push(self.take(k).decode("utf-8"))

    def op_empty_tuple(self):
        self.push(())

    def op_tuple1(self):
        self.push((self.pop(),))

    def op_tuple2(self):
        b = self.pop()
        self.push((self.pop(), b))

    def op_tuple3(self):
        c = self.pop()
        b = self.pop()
        self.push((self.pop(), b, c))

    def op_tuple(self):
        self.push(tuple(self.pop_mark()))

    def op_empty_list(self):
        self.push([])

    def op_list(self):
        self.push(self.pop_mark())

    def op_empty_dict(self):
        self.push({})

    def target(self, kind, what):
        if not self.stack or not isinstance(self.stack[-1], kind):
            self.fail(f"{what} on something that is not a {kind.__name__}")
        return self.stack[-1]

    def op_append(self):
        v = self.pop()
        self.target(list, "APPEND").append(v)

    def op_appends(self):
        items = self.pop_mark()
        self.target(list, "APPENDS").extend(items)

    def op_setitem(self):
        v = self.pop()
        k = self.pop()
        self.set_items(self.target(dict, "SETITEM"), [k, v])

    def op_setitems(self):
        items = self.pop_mark()
        if len(items) % 2:
            self.fail("SETITEMS with an odd number of items")
        self.set_items(self.target(dict, "SETITEMS"), items)

    def set_items(self, d, items):
        for i in range(0, len(items), 2):
            k = items[i]
            if not isinstance(k, (str, int, float, bool, type(None))) and \
                    not isinstance(k, tuple):
                self.fail(f"dict key of type {type(k).__name__}")
            try:
                d[k] = items[i + 1]
            except TypeError:
                self.fail("unhashable dict key")

    def op_binput(self):
        self.put(self.take(1)[0])

    def op_long_binput(self):
        self.put(struct.unpack("<I", self.take(4))[0])

    def put(self, i):
        if not self.stack or self.stack[-1] is _MARK:
            self.fail("memo PUT with an empty stack")
        if i >= MAX_MEMO:
            self.fail(f"memo index {i} is too large")
        self.memo[i] = self.stack[-1]

    def op_binget(self):
        self.get(self.take(1)[0])

    def op_long_binget(self):
        self.get(struct.unpack("<I", self.take(4))[0])

    def get(self, i):
        if i not in self.memo:
            self.fail(f"memo GET of index {i}, which was never PUT")
        self.push(self.memo[i])

    def op_global(self):
        module = self.line()
        name = self.line()
        self.push(_resolve_global(self, module, name))

    def op_binpersid(self):
        pid = self.pop()
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            self.fail("persistent id is not ('storage', type, key, location, numel)")
        _, stype, key, location, numel = pid
        if not isinstance(stype, _StorageType):
            self.fail("persistent id names no storage type")
        digits = key[:-len(".storage")] if isinstance(key, str) and \
            key.endswith(".storage") else key
        if not isinstance(digits, str) or not digits.isdigit() or len(digits) > 12:
            self.fail(f"storage key {str(key)[:40]!r} is not a decimal number")
        if not isinstance(location, str) or not location.startswith("cpu") and \
                not location.startswith("cuda") and location not in ("mps", "meta", "xpu"):
            self.fail(f"storage location {str(location)[:40]!r} is unknown")
        if type(numel) is not int or numel < 0:
            self.fail("storage size is not a non-negative int")
        self.push(Storage(stype.dtype, key, location, numel))

    def op_reduce(self):
        args = self.pop()
        fn = self.pop()
        if not isinstance(args, tuple):
            self.fail("REDUCE arguments are not a tuple")
        if not isinstance(fn, _Global):
            self.fail("REDUCE of something that is not an allowed global")
        self.push(_call(self, fn, args))

    def op_newobj(self):
        args = self.pop()
        cls = self.pop()
        if not isinstance(cls, _Global) or not cls.module.startswith("__torch__"):
            self.fail("NEWOBJ of something that is not a __torch__ class")
        if args != ():
            self.fail(f"NEWOBJ of {cls.full[:80]} with arguments")
        self.push(Obj(cls.full))

    def op_build(self):
        state = self.pop()
        obj = self.target(Obj, "BUILD")
        if obj.has_state:
            self.fail(f"BUILD of {obj.qualname[:80]} twice")
        obj.state, obj.has_state = state, True

    def op_proto(self):
        self.fail("PROTO in the middle of a pickle")


_STOP = object()


def _resolve_global(m: _Machine, module: str, name: str):
    full = f"{module}.{name}"
    if module == "torch" and name in STORAGE_DTYPES:
        return _StorageType(name, STORAGE_DTYPES[name])
    if module == "torch" and name in REFUSED_STORAGES:
        raise ArtifactError(f"{m.what}: tensors of dtype {REFUSED_STORAGES[name]} "
                            f"(torch.{name}) are not supported: numpy has no such type")
    if full in ("torch._utils._rebuild_tensor_v2", "collections.OrderedDict",
                "torch.jit._pickle.restore_type_tag", "torch.device", "builtins.complex") \
            or (module == "torch.jit._pickle" and name in _LIST_BUILDERS):
        return _Global(module, name)
    if full.startswith(("torch._utils._rebuild_qtensor", "torch._utils._rebuild_sparse")) or \
            name in ("_rebuild_qtensor", "_rebuild_sparse_tensor"):
        raise ArtifactError(f"{m.what}: {full} (quantized or sparse tensors) is not "
                            "supported")
    if module.startswith("__torch__") and all(p.isidentifier() for p in full.split(".")):
        return _Global(module, name)
    raise ArtifactError(f"{m.what}: unknown global {full[:120]!r} (TorchScript archives "
                        "name only tensors, storages, list builders and __torch__ classes)")


def _call(m: _Machine, fn: _Global, args: tuple):
    full = fn.full
    if full == "torch._utils._rebuild_tensor_v2":
        return _rebuild_tensor(m, args)
    if full == "collections.OrderedDict":
        if args != ():
            m.fail("OrderedDict() with arguments")
        return {}
    if full == "torch.jit._pickle.restore_type_tag":
        if len(args) != 2 or not isinstance(args[1], str):
            m.fail("restore_type_tag takes a value and a type string")
        return args[0]
    if full == "torch.device":
        if len(args) not in (1, 2) or not isinstance(args[0], str):
            m.fail("torch.device takes a device string")
        return args[0]
    if fn.module == "torch.jit._pickle" and fn.name in _LIST_BUILDERS:
        if len(args) != 1 or not isinstance(args[0], list):
            m.fail(f"{fn.name} takes one list")
        kind = _LIST_BUILDERS[fn.name]
        key = (id(args[0]), fn.name)
        if key not in m.checked:
            for x in args[0]:
                ok = isinstance(x, TensorRef) if kind is None else (
                    type(x) is kind or (kind is float and type(x) is int))
                if not ok:
                    m.fail(f"{fn.name} holds a {type(x).__name__}")
            m.checked.add(key)
        return args[0]
    if full == "builtins.complex":
        if len(args) != 2 or not all(type(x) in (int, float) for x in args):
            m.fail("complex() takes a real and an imaginary part")
        return complex(args[0], args[1])
    m.fail(f"{full[:80]} cannot be called (it is a class, not a rebuild function)")


def _rebuild_tensor(m: _Machine, args: tuple):
    if len(args) not in (5, 6, 7):
        m.fail("_rebuild_tensor_v2 takes (storage, offset, size, stride, requires_grad, "
               "hooks)")
    storage, offset, size, stride, requires_grad = args[:5]
    if not isinstance(storage, Storage):
        m.fail("_rebuild_tensor_v2 of something that is not a storage")
    if type(offset) is not int or offset < 0:
        m.fail("tensor storage offset is not a non-negative int")
    for what, seq in (("size", size), ("stride", stride)):
        if not isinstance(seq, tuple) or not all(type(x) is int for x in seq):
            m.fail(f"tensor {what} is not a tuple of ints")
        if len(seq) > 64:
            m.fail(f"tensor has {len(seq)} dimensions")
    if len(size) != len(stride):
        m.fail("tensor size and stride differ in length")
    if any(x < 0 for x in size) or any(x < 0 for x in stride):
        m.fail("tensor has a negative size or stride")
    if not isinstance(requires_grad, bool):
        m.fail("tensor requires_grad is not a bool")
    return TensorRef(storage, offset, size, stride, requires_grad)


_OPS = {
    0x28: _Machine.op_mark, 0x2e: _Machine.op_stop, 0x4e: _Machine.op_none,
    0x88: _Machine.op_true, 0x89: _Machine.op_false, 0x4a: _Machine.op_binint,
    0x4b: _Machine.op_binint1, 0x4d: _Machine.op_binint2, 0x8a: _Machine.op_long1,
    0x47: _Machine.op_binfloat, 0x58: _Machine.op_binunicode,
    0x55: _Machine.op_short_binstring, 0x54: _Machine.op_binstring,
    0x29: _Machine.op_empty_tuple, 0x85: _Machine.op_tuple1, 0x86: _Machine.op_tuple2,
    0x87: _Machine.op_tuple3, 0x74: _Machine.op_tuple, 0x5d: _Machine.op_empty_list,
    0x6c: _Machine.op_list, 0x7d: _Machine.op_empty_dict, 0x61: _Machine.op_append,
    0x65: _Machine.op_appends, 0x73: _Machine.op_setitem, 0x75: _Machine.op_setitems,
    0x71: _Machine.op_binput, 0x72: _Machine.op_long_binput, 0x68: _Machine.op_binget,
    0x6a: _Machine.op_long_binget, 0x63: _Machine.op_global, 0x51: _Machine.op_binpersid,
    0x52: _Machine.op_reduce, 0x81: _Machine.op_newobj, 0x62: _Machine.op_build,
    0x80: _Machine.op_proto,
}
_NAMES = {0x69: "INST", 0x6f: "OBJ", 0x93: "STACK_GLOBAL", 0x92: "NEWOBJ_EX",
          0x50: "PERSID", 0x8c: "SHORT_BINUNICODE", 0x95: "FRAME", 0x94: "MEMOIZE",
          0x42: "BINBYTES", 0x43: "SHORT_BINBYTES", 0x97: "BYTEARRAY8", 0x96: "NEXT_BUFFER",
          0x82: "EXT1", 0x83: "EXT2", 0x84: "EXT4", 0x56: "UNICODE", 0x53: "STRING",
          0x49: "INT", 0x4c: "LONG", 0x46: "FLOAT", 0x67: "GET", 0x70: "PUT",
          0x30: "POP", 0x31: "POP_MARK", 0x32: "DUP", 0x64: "DICT", 0x8b: "LONG4",
          0x8d: "BINUNICODE8", 0x8e: "BINBYTES8", 0x8f: "EMPTY_SET", 0x90: "ADDITEMS",
          0x91: "FROZENSET"}
