"""Error messages: class, line, and the hint that tells the user what to do."""

from __future__ import annotations

import pytest

from ember import errors
from ember.frontend import compile_source

E = errors


def err(src: str) -> errors.CompileError:
    with pytest.raises(errors.CompileError) as ei:
        compile_source(src, "t.py")
    return ei.value


CASES = [
    # (source, error class, line, text the message must contain)
    ("from typing import Optional\ndef f(x: Optional[int]) -> int:\n    return x + 1\n",
     E.TypeCheckError, 3, "check `x is not None` first"),
    ("from typing import Optional\nclass A:\n    def __init__(self):\n"
     "        self.v: Optional[int] = None\ndef f(a: A) -> int:\n"
     "    if a.v is not None:\n        return a.v + 1\n    return 0\n",
     E.TypeCheckError, 7, "copy the attribute to a local"),
    ("import torch\nfrom typing import Optional\n"
     "def f(x: torch.Tensor, val: Optional[int]):\n    return x + val\n",
     E.TypeCheckError, 4, "'val' is Optional[int]: check `val is not None` first"),
    ("import torch\nfrom typing import Optional\n"
     "def f(x: torch.Tensor, val: Optional[int]):\n    return val < x\n",
     E.TypeCheckError, 4, "'val' is Optional[int]: check `val is not None` first"),
    ("from typing import Optional\ndef f(a: Optional[str]) -> int:\n    return len(a)\n",
     E.TypeCheckError, 3, "'a' is Optional[str]"),
    ("from typing import Optional\ndef f(a: Optional[int]) -> bool:\n    return a < 3\n",
     E.TypeCheckError, 3, "'a' is Optional[int]"),
    ("from typing import Optional\ndef f(a: Optional[str]) -> str:\n    return a.upper()\n",
     E.TypeCheckError, 3, "check `a is not None` first"),
    ("from typing import Union\ndef f(a: Union[int, str]) -> int:\n    return a[0]\n",
     E.TypeCheckError, 3, "isinstance(a, ...)"),
    ("from typing import List\ndef f(xs: List[int]) -> None:\n    xs.append('a')\n",
     E.TypeCheckError, 3, "argument 'x' must be int, not str"),
    ("from typing import List\ndef f(xs: List[int]) -> None:\n    xs.append(1, 2)\n",
     E.TypeCheckError, 3, "takes at most 1 argument(s), got 2"),
    ("def f(x: int):\n    out = []\n    out.append(torch.ones(1))\n    out.append(x)\n    return out\n",
     E.TypeCheckError, 4, "empty [] is List[Tensor] unless annotated"),
    ("def f(x: int):\n    d = {}\n    d['t'] = torch.ones(1)\n    d['a'] = x\n    return d\n",
     E.TypeCheckError, 4, "dict value has type Tensor"),
    ("def f(a: float) -> float:\n    return max(a, 2)\n", E.TypeCheckError, 2, "float(...)"),
    ("def f(x: frob) -> int:\n    return 1\n", E.NameResolutionError, 1, "unknown type 'frob'"),
    ("def f(x: int) -> bytes:\n    return 1\n", E.UnsupportedError, 1, "no bytes type"),
    ("from typing import FrozenSet\ndef f(x: FrozenSet[int]) -> int:\n    return 1\n",
     E.UnsupportedError, 2, "no frozenset"),
    ("def g() -> int:\n    return 1\ndef f(x: g) -> int:\n    return 1\n",
     E.TypeCheckError, 3, "not a type"),
    ("import functools\n@functools.lru_cache\ndef f(x: int) -> int:\n    return x\n",
     E.UnsupportedError, 2, "@functools.lru_cache"),
    ("def f(x: int) -> int:\n    with tch.no_grad():\n        x = 1\n    return x\n",
     E.NameResolutionError, 2, "'tch' is not defined"),
    ("class A:\n    x = [1]\n    def __init__(self):\n        self.y = 1\n"
     "def f() -> int:\n    return A().y\n", E.UnsupportedError, 2, "class body"),
    ("class A:\n    def __init__(self):\n        self.y = 1\ndef f() -> int:\n    return A.z\n",
     E.NameResolutionError, 5, "no constant or static method 'z'"),
    ("class A:\n    def __init__(self):\n        self.y = 1\n    def m(self) -> int:\n"
     "        return 1\ndef f() -> int:\n    return A.m()\n",
     E.UnsupportedError, 7, "instance method"),
]


@pytest.mark.parametrize("src, cls, line, text", CASES)
def test_message(src, cls, line, text):
    e = err(src)
    assert isinstance(e, cls), f"{type(e).__name__}: {e}"
    assert e.line == line, str(e)
    assert text in e.message, e.message


def test_rendering_has_caret_and_file():
    e = err("def f(x: int) -> int:\n    return x + 'a'\n")
    text = str(e)
    assert "--> t.py:2:12" in text
    assert "^^^^^^^" in text
