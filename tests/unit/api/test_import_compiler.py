"""`from ember import script` imports the compiler, so that the first compile in a process
imports nothing more (its time is compiling, as torch.jit.script's is after `import torch`),
while `import ember.mobile` stays free of it."""

from __future__ import annotations

import subprocess
import sys

_FIRST_COMPILES = r'''
import sys
from ember import script
from ember import nn
before = set(sys.modules)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        y = self.body(x).mean([2, 3])
        return self.head(y), [f"{i}" for i in range(2)]

def fn(xs: list[int]) -> int:
    total = 0
    for i, x in enumerate(xs):
        try:
            total += {k: k * 2 for k in range(x)}.get(i, 0)
        except KeyError:
            total -= 1
    return total

script(Net())
script(fn)
print(sorted(m for m in set(sys.modules) - before if m.startswith("ember")))
'''


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_first_compile_imports_no_more_of_ember(tmp_path):
    path = tmp_path / "first_compiles.py"  # ember compiles from source files
    path.write_text(_FIRST_COMPILES)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_lite_runtime_does_not_import_the_compiler():
    out = _run("import sys, ember.mobile; print(sorted(m for m in sys.modules if "
               "m.startswith(('ember.frontend', 'ember.api', 'ember.passes', 'lark'))))")
    assert out == "[]"
