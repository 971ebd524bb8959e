"""Reading real TorchScript archives (made with torch at test time) and refusing broken
ones with an ArtifactError that names the problem."""

import io
import zipfile

import numpy as np
import pytest

from ember.errors import ArtifactError
from ember.torchscript import read_archive


def _save(torch, module, lite=False) -> bytes:
    buf = io.BytesIO()
    s = torch.jit.script(module)
    if lite:
        return bytes(s._save_to_buffer_for_lite_interpreter())
    torch.jit.save(s, buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def views_archive(torch):
    class Views(torch.nn.Module):
        def __init__(self):
            super().__init__()
            base = torch.arange(12.0)
            self.register_buffer("base", base)
            self.register_buffer("view", base[2:8].view(2, 3))
            self.register_buffer("cols", base.view(3, 4)[:, 1])
            self.lin = torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.lin(x + self.view)
    torch.manual_seed(0)
    m = Views().eval()
    return m, _save(torch, m)


def test_tensors_match_and_views_share_storage(views_archive):
    m, data = views_archive
    a = read_archive(data)
    st = a.root.state
    for name, t in m.state_dict().items():
        obj = st
        for part in name.split(".")[:-1]:
            obj = obj[part].state
        assert np.array_equal(obj[name.split(".")[-1]], t.numpy()), name
    assert np.shares_memory(st["base"], st["view"])
    assert np.shares_memory(st["base"], st["cols"])
    st["base"][3] = 100.0
    assert st["view"][0, 1] == 100.0 and st["cols"][0] == 1.0


def test_lite_archive_reads_too(torch, views_archive):
    m, _ = views_archive
    a = read_archive(_save(torch, m, lite=True))
    assert a.lite and a.root.qualname.endswith("Views")


def _rewrite(data: bytes, edit) -> bytes:
    """The archive with entries passed through edit(name, bytes) -> (name, bytes) | None."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            r = edit(info.filename, src.read(info))
            if r is None:
                continue
            name, raw = r
            dst.writestr(zipfile.ZipInfo(name), raw,
                         compress_type=info.compress_type)
    return out.getvalue()


def _entry(rel):
    return lambda n: n.split("/", 1)[1] == rel


@pytest.mark.parametrize("edit, match", [
    (lambda n, b: None if n.endswith("/data/0") else (n, b), "data/0 is missing"),
    (lambda n, b: (n, b[:-4]) if n.endswith("/data/0") else (n, b), "holds 44 bytes"),
    (lambda n, b: ("../evil", b) if n.endswith("/version") else (n, b),
     "leaves the archive"),
    (lambda n, b: ("other/version", b) if n.endswith("/version") else (n, b),
     "top folder"),
    (lambda n, b: (n, b"99") if n.endswith("/version") else (n, b), "version 99"),
    (lambda n, b: None if n.endswith("data.pkl") else (n, b), "no data.pkl"),
    (lambda n, b: (n, b.replace(b"FloatStorage", b"BFloat16Storage"))
     if n.endswith("data.pkl") else (n, b), "bfloat16"),
    (lambda n, b: (n, b.replace(b"_rebuild_tensor_v2", b"_rebuild_tensor_v3"))
     if n.endswith("data.pkl") else (n, b), "unknown global"),
    (lambda n, b: (n, b[:len(b) // 2]) if n.endswith("data.pkl") else (n, b),
     "data.pkl"),
    (lambda n, b: (n, b"\xff\xfe") if n.endswith(".py") else (n, b), "not UTF-8"),
])
def test_broken_archives(views_archive, edit, match):
    _, data = views_archive
    with pytest.raises(ArtifactError, match=match):
        read_archive(_rewrite(data, edit))


def test_view_outside_storage(views_archive):
    _, data = views_archive
    # The first tensor's storage (data/0, the 12-element base) shrunk to 2 elements in the
    # pickle and on disk: its 12-element view no longer fits.
    def edit(n, b):
        if n.endswith("data.pkl"):
            return n, b.replace(b"K\x0ct", b"K\x02t", 1)
        if n.endswith("/data/0"):
            return n, b[:8]
        return n, b
    with pytest.raises(ArtifactError, match="reaches element"):
        read_archive(_rewrite(data, edit))


def test_zip_bomb_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("m/version", "3")
        z.writestr("m/data.pkl", b"\x00" * (64 << 20))
    with pytest.raises(ArtifactError, match="zip bomb|declare"):
        read_archive(out.getvalue())


def test_not_zip_and_flatbuffer():
    with pytest.raises(ArtifactError, match="not a zip"):
        read_archive(b"hello world, this is not a zip file at all")
    with pytest.raises(ArtifactError, match="flatbuffer"):
        read_archive(b"\x00\x00\x00\x00PTMF" + b"\x00" * 40)


def test_encrypted_entry_is_refused(views_archive):
    _, data = views_archive
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename)
            raw = src.read(info)
            dst.writestr(zi, raw)
    raw = bytearray(out.getvalue())
    # set the encryption flag in every central directory record
    i = raw.find(b"PK\x01\x02")
    while i >= 0:
        raw[i + 8] |= 1
        i = raw.find(b"PK\x01\x02", i + 4)
    with pytest.raises(ArtifactError, match="encrypted"):
        read_archive(bytes(raw))


def _crafted(size: bytes, stride: bytes) -> bytes:
    """A minimal archive whose module holds one tensor view of a 1-element storage."""
    import struct

    def t(text):
        raw = text.encode()
        return b"X" + struct.pack("<I", len(raw)) + raw

    def g(module, name):
        return b"c" + module.encode() + b"\n" + name.encode() + b"\n"
    pkl = (b"\x80\x02" + g("__torch__.m", "M") + b")\x81}(" + t("w") +
           g("torch._utils", "_rebuild_tensor_v2") + b"((" + t("storage") +
           g("torch", "FloatStorage") + t("0") + t("cpu") + b"K\x01tQ" + b"K\x00" +
           size + stride + b"\x89" + g("collections", "OrderedDict") + b")RtR" + b"ub.")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("m/version", "3")
        z.writestr("m/code/__torch__/m.py", "class M(Module):\n  w : Tensor\n")
        z.writestr("m/data.pkl", pkl)
        z.writestr("m/data/0", b"\x00" * 4)
    return out.getvalue()


def test_crafted_archive_reads():
    a = read_archive(_crafted(b"K\x03\x85", b"K\x00\x85"))  # size (3,), stride (0,)
    assert a.root.state["w"].shape == (3,)


def test_stride_zero_expansion_bomb_is_refused():
    huge = b"\x8a\x06\x00\x00\x00\x00\x00\x01\x85"  # (2**40,)
    with pytest.raises(ArtifactError, match="stride-0 expansion"):
        read_archive(_crafted(huge, b"K\x00\x85"))
