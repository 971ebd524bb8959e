"""What a call did, as differential tests compare it: its result (or exception type and
message) and its arguments afterwards (native code must mutate them as the VM does)."""

from __future__ import annotations

import copy


def outcome(fn, args):
    args = copy.deepcopy(args)
    try:
        return ("ok", fn(*args), args)
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("err", type(e).__name__, str(e), args)
