"""Large artifacts are mapped, not read: tensors are read-only views of the file mapping
(frozen, so the weight caches work), bytes and file objects load without a second copy,
a mapped artifact survives an atomic replacement of its file, and a file truncated
before or after load fails with ArtifactError, never a SIGBUS."""

import io
import os
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import ember
from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import artifact_bytes, write_artifact
from ember.mobile.artifact import MAP_MIN_BYTES, VERIFY_MAX_BYTES
from ember.ops.tensor_common import FrozenMap, frozen

nn = ember.nn
X = np.linspace(-1, 1, 2 * 256, dtype=np.float32).reshape(2, 256)


def _model(seed: int):
    """A 2.5 MiB model (mapped: over MAP_MIN_BYTES)."""
    rng = np.random.default_rng(seed)
    m = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256))
    m.load_state_dict({k: rng.standard_normal(v.shape).astype(np.float32)
                       for k, v in m.state_dict().items()})
    return ember.script(m)


@pytest.fixture(scope="module")
def model():
    return _model(0)


@pytest.fixture()
def big(tmp_path, model):
    path = tmp_path / "big.ember"
    model.save(path)
    assert os.path.getsize(path) >= MAP_MIN_BYTES
    return path


def _owner(t):
    while isinstance(t, np.ndarray):
        t = t.base
    return t.obj if type(t) is memoryview else t


def test_large_artifact_tensors_view_a_read_only_mapping(big, model):
    m = mobile.load(big)
    tensors = [t for _, t in m.program.tensors]
    assert tensors and all(type(_owner(t)) is FrozenMap for t in tensors)
    assert all(frozen(t) and not t.flags.writeable for t in tensors)
    assert all(t.ctypes.data % 64 == 0 for t in tensors)
    assert m.program.mapping[1] == os.path.getsize(big)
    np.testing.assert_array_equal(m(X), model(X))


def test_bytes_and_file_objects_load_without_a_second_copy(big, model):
    data = big.read_bytes()
    m = mobile.loads(data)
    assert all(_owner(t) is data for _, t in m.program.tensors)
    with open(big, "rb") as fh:
        f = mobile.load(fh)
    assert all(type(_owner(t)) is bytes for _, t in f.program.tensors)
    assert f.program.mapping is None and m.program.mapping is None
    np.testing.assert_array_equal(m(X), model(X))
    np.testing.assert_array_equal(f(X), model(X))
    with open(big, "r") as fh:
        with pytest.raises(ArtifactError, match="binary mode"):
            mobile.load(fh)


def test_small_artifacts_are_read(tmp_path):
    path = tmp_path / "small.ember"
    ember.script(nn.Linear(4, 2)).save(path)
    m = mobile.load(path)
    assert m.program.mapping is None
    assert all(type(_owner(t)) is bytes and frozen(t) for _, t in m.program.tensors)


def test_mapped_artifact_survives_atomic_replacement(big, model):
    old = mobile.load(big)
    other = _model(1)
    other.save(big)  # temp file + rename: the mapping keeps the old file
    np.testing.assert_array_equal(old(X), model(X))
    np.testing.assert_array_equal(mobile.load(big)(X), other(X))
    assert not np.array_equal(other(X), model(X))


def test_truncation_after_load_is_an_artifact_error_not_a_sigbus(big):
    """Run in a child: were the guard missing, the fault would kill the process."""
    code = textwrap.dedent(f"""
        import os, numpy as np
        from ember import mobile
        from ember.errors import ArtifactError
        m = mobile.load({str(big)!r})
        x = np.ones((2, 256), np.float32)
        m(x)
        os.truncate({str(big)!r}, 4096)
        try:
            m(x)
        except ArtifactError as e:
            print("ArtifactError:", e)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "ArtifactError: the artifact file was truncated after it was loaded" in r.stdout


def _set_extra_length(data: bytes, n: int) -> bytes:
    """tensors.bin's local header (the first) with an extra field length of n."""
    return data[:28] + n.to_bytes(2, "little") + data[30:]


def test_tensor_data_past_the_end_of_the_file_fails_at_load(tmp_path, model):
    """tensors.bin's local header pushes its data (as a mapping would see it) past the
    end of the file: refused before any tensor is touched."""
    data = _set_extra_length(artifact_bytes(model.program), 0xFFFF)
    with pytest.raises(ArtifactError, match="past the end"):
        mobile.loads(data)
    path = tmp_path / "past.ember"
    path.write_bytes(data[:len(data) - 40_000] + data[-(len(data) - 2_700_000):])
    with pytest.raises(ArtifactError):
        mobile.load(path)


def test_truncated_files_fail_at_load(big, tmp_path):
    data = big.read_bytes()
    for cut in (len(data) // 2, len(data) - 10, 100):
        path = tmp_path / f"cut{cut}.ember"
        path.write_bytes(data[:cut])
        with pytest.raises(ArtifactError):
            mobile.load(path)


def test_checksum_of_large_tensor_data_is_checked_on_request(big, model):
    data = bytearray(big.read_bytes())
    start = 30 + int.from_bytes(data[26:28], "little") + int.from_bytes(data[28:30], "little")
    for i in range(start + 3, start + 4096, 4):
        data[i] ^= 0x01  # an exponent bit of a thousand weights
    path = big.with_name("flipped.ember")
    path.write_bytes(bytes(data))
    if os.path.getsize(path) <= VERIFY_MAX_BYTES:
        with pytest.raises(ArtifactError, match="checksum mismatch"):
            mobile.load(path)  # small enough to hash by default
    assert not np.array_equal(mobile.load(path, verify=False)(X), model(X))
    with pytest.raises(ArtifactError, match="checksum mismatch"):
        mobile.load(path, verify=True)


def test_equal_tensors_are_stored_once_and_distinct_ones_apart():
    from ember.interpreter.artifact_writer import _tensor_plan

    a = np.zeros(100_000, np.float32)
    b = a.copy()
    b[50_001] = 1  # outside the sampled bytes
    arrays, records, size = _tensor_plan([("a", a), ("a2", a.copy()), ("b", b), ("a3", a)])
    assert [r["offset"] for r in records] == [0, 0, 400_000, 0]
    assert len(arrays) == 2 and size == 800_000


def test_big_endian_and_strided_tensors_are_written_little_endian(tmp_path):
    from ember.interpreter.artifact_writer import _tensor_plan

    a = np.arange(12, dtype=">i4").reshape(3, 4)[:, ::2]
    arrays, records, size = _tensor_plan([("a", a)])
    assert bytes(arrays[0][1]) == np.ascontiguousarray(a).astype("<i4").tobytes()
    assert records[0]["shape"] == [3, 2] and size == 24


def test_write_is_atomic_on_error(tmp_path, model):
    path = tmp_path / "keep.ember"
    model.save(path)
    before = path.read_bytes()
    bad = type(model.program)(functions=model.program.functions,
                              tensors=[("t", np.zeros(3, np.uint16))])
    with pytest.raises(ValueError, match="uint16"):
        write_artifact(bad, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.ember"]
    assert zipfile.ZipFile(io.BytesIO(before)).namelist() == ["tensors.bin", "manifest.json"]


def test_a_mutable_program_copies_its_tensors_and_lets_the_mapping_go(tmp_path):
    class Acc(nn.Module):
        def __init__(self):
            super().__init__()
            self.total = np.zeros(300_000, np.float32)

        def forward(self, x):
            self.total.add_(x)
            return self.total.sum()

    path = tmp_path / "acc.ember"
    ember.script(Acc()).save(path)
    assert os.path.getsize(path) >= MAP_MIN_BYTES
    m = mobile.load(path)
    assert m.program.manifest["mutable_tensors"] is True
    assert m.program.mapping is None
    assert all(t.flags.writeable and t.base is None for _, t in m.program.tensors)
    os.truncate(path, 100)
    x = np.ones(300_000, np.float32)
    assert m(x) == 300_000.0 and m(x) == 600_000.0
