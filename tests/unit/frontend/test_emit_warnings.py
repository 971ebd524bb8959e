"""`warnings.warn` in compiled code: its arguments are type-checked and no warning is
issued (torchvision's GoogLeNet and Inception warn about their scripted output type)."""

from __future__ import annotations

import warnings
from warnings import warn

import pytest

import ember
from ember import errors


def warn_then_add(n: int) -> int:
    if n < 0:
        warnings.warn("negative input", UserWarning, stacklevel=2)
    warnings.warn(f"n is {n}")
    return n + 1


def warn_imported(n: int) -> int:
    warn("imported by name", DeprecationWarning)
    return n


def warn_not_str(n: int) -> int:
    warnings.warn(n)
    return n


def test_warnings_warn_is_type_checked_and_issues_nothing():
    f = ember.script(warn_then_add)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(-3) == -2 and f(4) == 5
        assert ember.script(warn_imported)(7) == 7
    with pytest.raises(errors.TypeCheckError) as ei:
        ember.script(warn_not_str)
    assert "message of warnings.warn()" in ei.value.message
