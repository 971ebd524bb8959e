"""Functions given to ember.script as a Python module holds them (for test_script_any.py)."""

from typing import Any, List, Optional, Tuple

import torch


def describe(x: Any, times: int = 1) -> str:
    if isinstance(x, int):
        return "int " + str(x * times)
    if isinstance(x, str):
        return "str " + x * times
    return "other " + str(x)


def total(xs: Optional[Tuple[int, ...]] = None) -> int:
    if xs is None:
        return -1
    return sum(xs)


@torch.jit._overload
def pick(x):
    # type: (int) -> int
    pass


@torch.jit._overload
def pick(x):  # noqa: F811
    # type: (float) -> float
    pass


def pick(x):  # noqa: F811
    return x


def picks() -> Tuple[float, int]:
    return pick(1.5), pick(2)


def lengths(xs: List[Any]) -> int:
    return len(xs)
