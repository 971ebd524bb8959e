"""Sets in artifacts (format 8): set<T> signatures and the set operators survive save ->
load, sets cross the call boundary as Python sets (type-checked), and an older runtime
refuses the artifact naming both versions."""

import json
import zipfile

import pytest

import ember
from ember import mobile
from ember.errors import ArtifactError
from ember.mobile import manifest as M
from ember.mobile.boundary import CallError

SOURCE = '''
from typing import List, Set


def grow(s: Set[int], xs: List[int]) -> Set[int]:
    s.update(xs)
    return s | {0}


def order(xs: List[int]) -> List[int]:
    return list(set(xs))
'''


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    cu = ember.CompilationUnit(SOURCE)
    d = tmp_path_factory.mktemp("sets")
    cu.grow.save(d / "grow.ember")
    cu.order.save(d / "order.ember")
    return cu, d / "grow.ember", d / "order.ember"


def test_sets_round_trip_through_the_artifact(saved):
    cu, grow, order = saved
    for fn in (cu.grow, mobile.load(grow)):
        got = fn({5}, [3, 5, 8])
        assert type(got) is set and got == {0, 3, 5, 8}
    xs = [40, 8, 16, 1, 33, 2]
    assert mobile.load(order)(xs) == cu.order(xs) == list(set(xs))


def test_a_list_is_not_a_set_at_the_call_boundary(saved):
    loaded = mobile.load(saved[1])
    with pytest.raises((CallError, TypeError), match="Set"):
        loaded([1], [2])


def test_format_8_is_written_and_an_older_runtime_refuses_it(saved, monkeypatch):
    with zipfile.ZipFile(saved[1]) as z:
        m = json.loads(z.read("manifest.json"))
    assert m["version"] >= 8 and m["reads"][1] >= 8
    assert "set<i64>" in json.dumps(m["entries"])
    monkeypatch.setattr(M, "READS", (1, 7))
    with pytest.raises(ArtifactError, match=r"version \d+ is newer than this runtime reads "
                                            r"\(1-7\)"):
        mobile.load(saved[1])
