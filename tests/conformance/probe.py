"""python -m tests.conformance.probe [file-substring]: tally of the conformance cases."""

import importlib
import pathlib
import sys

from .runner import check_case

HERE = pathlib.Path(__file__).parent


def main(pattern: str = "") -> None:
    total = passed = 0
    for path in sorted(HERE.glob("cases_*.py")):
        if pattern not in path.stem:
            continue
        mod = importlib.import_module(f"tests.conformance.{path.stem}")
        for i, (src, args) in enumerate(mod.CASES):
            total += 1
            why = check_case(src, args)
            if why is None:
                passed += 1
            else:
                first = src.strip().splitlines()[0]
                print(f"FAIL {path.stem}[{i}] {first}\n    {why}")
    print(f"{passed}/{total} passing")


if __name__ == "__main__":
    main(*sys.argv[1:])
