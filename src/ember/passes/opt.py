"""ember-opt: read IR, run passes, print IR.

    ember-opt FILE|- -p PIPELINE [--no-locs] [--verify-each] [--print-after=NAME]
              [--print-after-all] [--time-passes] [--split-input-file]

With --split-input-file, the input is split at lines `// -----` and each part
is processed on its own; the outputs are joined with `// -----`.
"""

from __future__ import annotations

import argparse
import sys

from ember.errors import EmberError
from ember.ir import parse_module, print_module, verify_module
from ember.passes.manager import PassManager

SPLIT = "// -----"


def main(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    ap = argparse.ArgumentParser(prog="ember-opt", description="run ember IR passes")
    ap.add_argument("input", help="IR file, or - for standard input")
    ap.add_argument("-p", "--passes", default="", help="pipeline, e.g. canonicalize,dce")
    ap.add_argument("--no-locs", action="store_true")
    ap.add_argument("--verify-each", action="store_true")
    ap.add_argument("--print-after", action="append", default=[])
    ap.add_argument("--print-after-all", action="store_true")
    ap.add_argument("--time-passes", action="store_true")
    ap.add_argument("--split-input-file", action="store_true")
    args = ap.parse_args(argv)
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    chunks = _split(text) if args.split_input_file else [text]
    outputs, status = [], 0
    for chunk in chunks:
        try:
            outputs.append(_process(chunk, args, stderr))
        except EmberError as e:
            stderr.write(str(e) + "\n")
            status = 1
    stdout.write(f"\n{SPLIT}\n\n".join(o.rstrip("\n") for o in outputs) + "\n")
    return status


def _split(text: str) -> list[str]:
    parts, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.strip() == SPLIT:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    parts.append("".join(cur))
    return parts


def _process(text, args, stderr) -> str:
    module = parse_module(_strip_comments(text), args.input)
    verify_module(module)
    if args.passes:
        pm = PassManager(args.passes, verify_each=args.verify_each or True,
                         print_after=args.print_after, print_after_all=args.print_after_all,
                         time_passes=args.time_passes, out=stderr,
                         print_locs=not args.no_locs)
        pm.run(module)
    return print_module(module, locs=not args.no_locs)


def _strip_comments(text: str) -> str:
    """Blank out `//` comment lines, keeping line numbers for error messages."""
    return "".join("\n" if line.lstrip().startswith("//") else line
                   for line in text.splitlines(keepends=True))


if __name__ == "__main__":
    sys.exit(main())
