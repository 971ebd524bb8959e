"""Micro-benchmark (not a test): hand-assembled bytecode vs the same code in CPython.

    PYTHONPATH=src python bench/translate.py

Prints the best-of-5 time of each and the ratio ember / CPython.
"""

from __future__ import annotations

import time

from ember import mobile
from ember.interpreter.assembler import assemble

LISTING = """
function loop_mod(n: i64) -> i64
  .entry loop_mod
  LOADK   r1 0
  LOADK   r2 1
  LOADK   r3 1000003
  MOVE    r4 r1
  FOR     r5 r1 r0 r2 ->end
  KCALL   r6 int.mul (r5, r5)
  KCALL   r6 int.add (r4, r6)
  KCALL   r4 int.mod (r6, r3)
end:
  END
  RETURN  r4

function fib(n: i64) -> i64
  .entry fib
  LOADK   r1 2
  LOADK   r2 1
  KCALL   r3 int.lt (r0, r1)
  IF      r3 ->else
  RETURN  r0
else:
  END
  KCALL   r4 int.sub (r0, r2)
  CALL    r4 @fib (r4)
  KCALL   r0 int.sub (r0, r1)
  CALL    r0 @fib (r0)
  KCALL   r0 int.add (r4, r0)
  RETURN  r0
"""


def py_loop_mod(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s


def py_fib(n: int) -> int:
    if n < 2:
        return n
    return py_fib(n - 1) + py_fib(n - 2)


def best(fn, arg, repeat=5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    m = mobile.build(assemble(LISTING))
    for name, py, arg in [("loop_mod", py_loop_mod, 1_000_000), ("fib", py_fib, 25)]:
        entry = m.entry(name)
        assert entry(arg) == py(arg)
        e, c = best(entry, arg), best(py, arg)
        print(f"{name}({arg}): ember {e * 1e3:.1f} ms, CPython {c * 1e3:.1f} ms, "
              f"ratio {e / c:.2f}")


if __name__ == "__main__":
    main()
