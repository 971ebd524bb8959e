"""The characters a regular expression's matches can start with, for the lexer's dispatch.

lark's basic lexer matches one alternation of every terminal, which `re` tries in order at
each position. A terminal that cannot start with the character at that position cannot
match there, so the alternation of only the terminals that can (in the same order) finds
the same match. `first_chars` over-approximates: None means "any character".
"""

from __future__ import annotations

import re
import re._constants as C
import re._parser as sre_parse

_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)
_LITERAL_SAFE = C.SRE_FLAG_DOTALL | C.SRE_FLAG_MULTILINE
"""Flags that do not change which characters a literal, a set or a range matches."""


def first_chars(pattern: str, flags: int = 0) -> frozenset | None:
    """Every character a non-empty match of pattern may start with (None: unknown)."""
    if flags & ~_LITERAL_SAFE:
        return None
    try:
        chars, _ = _sequence(sre_parse.parse(pattern))
    except (re.error, _Unknown):
        return None
    return frozenset(chars)


class _Unknown(Exception):
    """A construct this analysis does not follow."""


def _sequence(items) -> tuple[set, bool]:
    """(first characters, can the sequence match empty)."""
    out: set = set()
    for op, av in items:
        chars, nullable = _item(op, av)
        out |= chars
        if not nullable:
            return out, False
    return out, True


def _item(op, av) -> tuple[set, bool]:
    if op is C.LITERAL:
        return {chr(av)}, False
    if op is C.IN:
        return _charset(av), False
    if op is C.SUBPATTERN:
        _, add_flags, del_flags, p = av
        if (add_flags | del_flags) & ~_LITERAL_SAFE:
            raise _Unknown
        return _sequence(p)
    if op is C.BRANCH:
        out, nullable = set(), False
        for p in av[1]:
            chars, n = _sequence(p)
            out |= chars
            nullable = nullable or n
        return out, nullable
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        low, _, p = av
        chars, nullable = _sequence(p)
        return chars, nullable or low == 0
    if op in _ZERO_WIDTH:
        return set(), True
    raise _Unknown


def _charset(items) -> set:
    out = set()
    for op, av in items:
        if op is C.LITERAL:
            out.add(chr(av))
        elif op is C.RANGE and av[1] - av[0] < 256:
            out.update(chr(c) for c in range(av[0], av[1] + 1))
        else:
            raise _Unknown  # negation, categories, wide ranges
    return out
