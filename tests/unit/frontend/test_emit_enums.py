"""Enum members crossing the call boundary: a Python Enum member given for a parameter of
the script Enum class of the same name is the script's member (in process and after
save -> ember.mobile.load, where every member of a kept Enum class is kept); ember.script
returns the Python Enum's own members; a CompilationUnit returns objects with .name,
.value and Python's str / repr."""

from __future__ import annotations

from enum import Enum
from typing import List

import pytest

import ember
from ember import errors, mobile


class Planet(Enum):
    MERCURY = 1
    VENUS = 2
    EARTH = 3


def farther(p: Planet) -> Planet:
    if p is Planet.EARTH:
        return Planet.MERCURY
    return Planet(p.value + 1)


def names(ps: List[Planet]) -> List[str]:
    return [p.name for p in ps]


def test_python_members_in_and_out():
    sf = ember.script(farther)
    assert sf(Planet.MERCURY) is Planet.VENUS
    assert sf(Planet.EARTH) is Planet.MERCURY
    assert ember.script(names)([Planet.VENUS, Planet.EARTH]) == ["VENUS", "EARTH"]


def test_members_passed_to_a_loaded_artifact(tmp_path):
    ember.script(farther).save(tmp_path / "f.ember")
    loaded = mobile.load(tmp_path / "f.ember")
    got = loaded(Planet.VENUS)  # no member is named in the body but VENUS reaches it
    assert (got.name, got.value, str(got), repr(got)) == \
        ("EARTH", 3, "Planet.EARTH", "<Planet.EARTH: 3>")


def test_other_objects_are_still_refused():
    class Other(Enum):
        MERCURY = 1

    with pytest.raises(errors.CallError, match="must be Planet"):
        ember.script(farther)(Other.MERCURY)


def test_compilation_unit_members():
    cu = ember.CompilationUnit('''
class Mode(Enum):
    ON = "on"
    OFF = "off"

def flip(m: str) -> Mode:
    return Mode.OFF if Mode(m) is Mode.ON else Mode.ON
''')
    r = cu.flip("on")
    assert (r.name, r.value, str(r), repr(r)) == ("OFF", "off", "Mode.OFF", "<Mode.OFF: 'off'>")
    assert cu.flip("off") is not r and cu.flip("on") is r  # singletons


class Switch(Enum):
    ON = "on"
    OFF = "off"


def _switch_module(base):
    class Toggle(base):
        def __init__(self, state: Switch):
            super().__init__()
            self.state = state

        def forward(self, x):
            if self.state == Switch.ON:
                self.state = Switch.OFF
                return x * 2
            return x + 1
    return Toggle


def test_enum_module_attributes(tmp_path):
    import numpy as np

    from ember import nn
    x = np.full(2, 3, np.float32)
    for state, want in ((Switch.ON, [6, 4]), (Switch.OFF, [4, 4])):
        sm = ember.script(_switch_module(nn.Module)(state))
        sm.save(tmp_path / "t.ember")
        loaded = mobile.load(tmp_path / "t.ember")
        for f in (sm, loaded):
            assert [float(f(x)[0]), float(f(x)[0])] == want
