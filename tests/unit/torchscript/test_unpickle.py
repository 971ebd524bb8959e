"""The restricted pickle reader: the opcodes and globals TorchScript archives use, inert
values, and an ArtifactError naming every malformation."""

import struct

import pytest

from ember.errors import ArtifactError
from ember.torchscript.unpickle import Obj, TensorRef, unpickle


def P(*parts: bytes) -> bytes:
    return b"\x80\x02" + b"".join(parts) + b"."


def s(text: str) -> bytes:
    raw = text.encode()
    return b"X" + struct.pack("<I", len(raw)) + raw


def g(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def test_scalars_and_containers():
    data = P(b"(", b"K\x05", b"M\x00\x01", b"J\xff\xff\xff\xff", b"\x8a\x02\x00\x80",
             b"G" + struct.pack(">d", 1.5), s("hi"), b"N\x88\x89", b"t")
    assert unpickle(data) == (5, 256, -1, -32768, 1.5, "hi", None, True, False)


def test_lists_dicts_and_memo():
    data = P(b"]q\x00(K\x01K\x02e", b"}(", s("a"), b"h\x00u", b"\x86")
    lst, d = unpickle(data)
    assert lst == [1, 2] and d == {"a": [1, 2]} and d["a"] is lst


def test_module_object_is_inert_record():
    data = P(g("__torch__.m", "Net"), b")\x81}(", s("training"), b"\x89ub")
    obj = unpickle(data)
    assert isinstance(obj, Obj) and obj.qualname == "__torch__.m.Net"
    assert obj.state == {"training": False}


def test_tensor_reference():
    data = P(g("torch._utils", "_rebuild_tensor_v2"), b"(", b"(", s("storage"),
             g("torch", "FloatStorage"), s("0"), s("cpu"), b"K\x06t", b"Q",
             b"K\x00", b"K\x02K\x03\x86", b"K\x03K\x01\x86", b"\x89",
             g("collections", "OrderedDict"), b")R", b"tR")
    t = unpickle(data)
    assert isinstance(t, TensorRef)
    assert (t.offset, t.size, t.stride, t.storage.numel) == (0, (2, 3), (3, 1), 6)
    assert t.storage.dtype == "float32" and t.storage.key == "0"


def test_list_builders():
    data = P(g("torch.jit._pickle", "build_intlist"), b"(]q\x00(K\x01K\x02etR")
    assert unpickle(data) == [1, 2]
    bad = P(g("torch.jit._pickle", "build_intlist"), b"(](" + s("x") + b"etR")
    with pytest.raises(ArtifactError, match="build_intlist holds a str"):
        unpickle(bad)


@pytest.mark.parametrize("data, match", [
    (P(g("os", "system"), s("ls"), b"\x85R"), "unknown global 'os.system'"),
    (P(g("builtins", "eval")), "unknown global"),
    (P(g("torch", "BFloat16Storage")), "bfloat16"),
    (P(g("torch._utils", "_rebuild_qtensor")), "quantized"),
    (b"\x80\x04" + b"N.", "not a protocol-2 pickle"),
    (P(b"\x93"), "STACK_GLOBAL"),
    (P(b"i"), "INST"),
    (P(b"h\x07"), "never PUT"),
    (b"\x80\x02N", "ends without STOP"),
    (P(b"NN"), "malformed stack"),
    (P(b"e"), "no MARK"),
    (P(b"X\xff\xff\xff\x7f"), "truncated"),
    (P(b"\x8a\x09" + b"\x00" * 9), "wider than 64 bits"),
    (P(g("__torch__.m", "Net"), b"K\x01\x85\x81"), "with arguments"),
    (P(b"N)\x81"), "not a __torch__ class"),
    (P(b"]q\x00h\x00a"), "contains itself"),
    (P(g("collections", "OrderedDict"), b"K\x01\x85R"), "OrderedDict"),
    (P(g("__torch__.m", "Net"), b")R"), "cannot be called"),
    (P(b"N}b"), "BUILD on something"),
])
def test_hostile_pickles(data, match):
    with pytest.raises(ArtifactError, match=match):
        unpickle(data)


def test_deep_nesting_is_refused_not_a_crash():
    data = P(b"]" * 100_000 + b"a" * 99_999)
    with pytest.raises(ArtifactError, match="deep"):
        unpickle(data)


def test_storage_persistent_id_checked():
    data = P(b"(", s("storage"), g("torch", "FloatStorage"), s("../x"), s("cpu"),
             b"K\x01tQ")
    with pytest.raises(ArtifactError, match="not a decimal number"):
        unpickle(data)
