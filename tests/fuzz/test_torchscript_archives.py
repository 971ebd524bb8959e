"""The TorchScript-archive fuzzer: mutants of real archives import cleanly, or fail with an
ArtifactError or a CompileError; never anything else."""

import pytest

pytest.importorskip("torch")

from ember.fuzz import torchscript_archives as F  # noqa: E402


@pytest.fixture(scope="module")
def seed_list():
    return F.seeds()


def test_fixed_seed_mutants_import_cleanly_or_fail_with_ember_errors(seed_list, tmp_path):
    stats = F.run_archives(5, seed_list, count=150, out_dir=str(tmp_path))
    assert stats.mutants == 150
    assert not stats.bugs, stats.bugs[:5]
    assert stats.classes["load:ArtifactError"] > 0
    assert stats.classes["run:same"] > 0


def test_every_mutator_produces_bytes(seed_list):
    import random
    for i, mutate in enumerate(F.MUTATORS):
        data, desc = mutate(random.Random(i), seed_list[i % len(seed_list)].data)
        assert isinstance(data, bytes) and isinstance(desc, str)


def test_repacked_seed_runs_the_same(seed_list):
    s = seed_list[0]
    data = F._zip(F._unzip(s.data))
    from ember.torchscript.load import load_torchscript
    expected = [F._call(load_torchscript(s.data), a) for a in s.cases]
    assert F.classify(data, s, expected)[0] == "run:same"


def test_classifier_flags_an_unexpected_exception(seed_list, monkeypatch):
    import ember.torchscript.load as L

    def boom(data):
        raise KeyError("x")
    monkeypatch.setattr(L, "load_torchscript", boom)
    s = seed_list[0]
    assert F.classify(s.data, s, [])[0] == "BUG:load:KeyError"
