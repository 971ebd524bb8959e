"""Run fuzzing code in a child process: native code that corrupts memory then fails one
test instead of aborting the whole test run."""

from __future__ import annotations

import json
import subprocess
import sys

WRAP = """
import json, sys
{code}
sys.stdout.write("\\nRESULT " + json.dumps(result))
"""


def in_child(code: str, timeout: float = 1800) -> dict:
    """Run `code` (which sets `result`, a JSON-able dict) in a fresh interpreter."""
    p = subprocess.run([sys.executable, "-c", WRAP.format(code=code)], capture_output=True,
                       text=True, timeout=timeout)
    assert p.returncode == 0, f"child exited with {p.returncode}: {p.stderr[-2000:]}"
    return json.loads(p.stdout.rsplit("\nRESULT ", 1)[1])
