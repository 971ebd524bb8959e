"""Artifact fuzzing in CI: thousands of mutants of real artifacts (scalar programs,
tensor functions, constant tensors, generated programs) each load and run, or fail at
load with ArtifactError; nothing else, no hang, no load beyond its memory bound."""

from __future__ import annotations

import pytest

from ember.fuzz import artifacts
from ember.fuzz.artifact_seeds import seeds
from ember.fuzz.entry_mutators import MUTATORS
from ember.fuzz.mutators import pack, unpack

CI_SEED = 3
CI_MUTANTS = 3000


@pytest.fixture(scope="module")
def seed_artifacts():
    return seeds(generated=2)


def test_fixed_seed_mutants_load_cleanly_or_fail_with_artifact_error(seed_artifacts, tmp_path):
    stats = artifacts.run_artifacts(CI_SEED, seed_artifacts, count=CI_MUTANTS,
                                    out_dir=str(tmp_path))
    assert stats.mutants == CI_MUTANTS
    assert not stats.bugs, stats.bugs[:5]
    assert stats.classes["load:ArtifactError"] > CI_MUTANTS // 3
    assert stats.classes["run:same"] > 100
    assert stats.classes["run:changed"] + stats.classes["run:error"] > 10


def test_seeds_include_tensor_constants(seed_artifacts):
    names = [s.name for s in seed_artifacts]
    assert "weights" in names and "scalars" in names
    m, files = unpack(next(s for s in seed_artifacts if s.name == "weights").data)
    assert len(m["tensors"]) == 3 and files["tensors.bin"]


def test_unchanged_repack_runs_the_same(seed_artifacts):
    for s in seed_artifacts:
        m, files = unpack(s.data)
        cls, _ = artifacts.classify(pack(m, files), s, artifacts._expected(s))
        assert cls == "run:same", s.name


def test_classifier_flags_a_non_artifact_error_at_load(seed_artifacts, monkeypatch):
    from ember import mobile

    def broken_loads(data):
        raise KeyError("oops")
    monkeypatch.setattr(mobile, "loads", broken_loads)
    s = seed_artifacts[0]
    assert artifacts.classify(s.data, s, [])[0] == "BUG:load:KeyError"


def test_every_mutator_produces_bytes(seed_artifacts):
    import random

    for k, mutate in enumerate(MUTATORS):
        data, desc = mutate(random.Random(k), seed_artifacts[0].data)
        assert isinstance(data, bytes) and desc


def test_mapped_and_read_mutants_load_alike(seed_artifacts, tmp_path, monkeypatch):
    """Every mutant loads from a mapped file exactly as from its bytes: the same
    ArtifactError message, or a module whose runs are classified the same."""
    import random

    from ember import mobile
    from ember.errors import ArtifactError
    from ember.mobile import artifact

    monkeypatch.setattr(artifact, "MAP_MIN_BYTES", 0)
    expected = {s.name: artifacts._expected(s) for s in seed_artifacts}
    path = tmp_path / "mutant.ember"
    mapped = 0
    for k in range(300):
        rng = random.Random(7000 + k)
        s = rng.choice(seed_artifacts)
        data, desc = rng.choice(MUTATORS)(rng, s.data)
        path.write_bytes(data)
        outcomes = []
        for load in (lambda: mobile.loads(data), lambda: mobile.load(path)):
            try:
                m = load()
            except ArtifactError as e:
                outcomes.append(("error", str(e)))
            else:
                mapped += m.program.mapping is not None
                outcomes.append(artifacts._run_all(m, s.cases, expected[s.name])[0])
        assert outcomes[0] == outcomes[1], (s.name, desc)
    assert mapped > 0  # (mutants re-zipped by `pack` are unaligned, so copied, not mapped)
