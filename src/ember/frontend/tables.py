"""The fast parser's tables as plain data, so that a process can parse without building lark.

Loading lark's own table cache (a pickle of its grammar objects, rebuilt into lark's
lexer, parser and callbacks) costs ~20 ms in every fresh process. The fast parser
(parser.py) needs much less: the terminals' patterns, the keyword maps, the LALR actions
and, per rule, its length, its left-hand side and how lark builds its callback. `export`
takes these from a built Lark object as JSON-ready data; `callback` rebuilds a rule's
callback as lark's ParseTreeBuilder builds it. The data is kept as JSON (never a pickle) next to lark's cache, in the private folder parser.py checks. Loading it
needs no lark: the wrappers below do what lark's do.

Actions are ints: a shift (or a goto) to state s is s, a reduction by rule r is ~r.
"""

from __future__ import annotations

import json
import re
from functools import partial


FORMAT = 1
"""Bumped when the data's layout changes (part of the cache file's name)."""


class Unsupported(Exception):
    """The Lark object is set up in a way this data does not describe."""


def export(lark, builder) -> dict | None:
    """The fast parser's data of lark (built with builder as its transformer), or None."""
    try:
        return {"format": FORMAT, **_lexer_data(lark), **_parser_data(lark, builder)}
    except Unsupported:
        return None


def _lexer_data(lark) -> dict:
    from lark.lexer import BasicLexer

    from ember.frontend.firstchars import first_chars
    lexer = getattr(lark.parser.lexer, "lexer", None)
    if type(lexer) is not BasicLexer or lark.lexer_conf.callbacks or lexer.use_bytes or \
            lexer.re is not re or len(lexer.scanner._mres) != 1:
        raise Unsupported
    flags = lexer.g_regex_flags
    terminals = []
    for t in lexer.scanner.terminals:
        pattern = t.pattern.to_regexp()
        first = first_chars(pattern, flags)
        terminals.append([t.name, pattern, None if first is None else "".join(sorted(first))])
    return {"flags": flags, "terminals": terminals, "ignore": sorted(lexer.ignore_types),
            "newline": sorted(lexer.newline_types),
            "keywords": {name: _keywords(cb) for name, cb in lexer.callback.items()}}


def _keywords(callback) -> dict:
    """An UnlessCallback's plain-string terminals as a dict value -> type (what its
    scanner's fullmatch gives)."""
    from lark.lexer import PatternStr, UnlessCallback
    if type(callback) is not UnlessCallback or callback.scanner.g_regex_flags:
        raise Unsupported
    out: dict = {}
    for t in callback.scanner.terminals:
        if not isinstance(t.pattern, PatternStr) or t.pattern.flags:
            raise Unsupported
        out.setdefault(t.pattern.value, t.name)
    return out


def _parser_data(lark, builder) -> dict:
    from lark.parsers.lalr_analysis import Shift
    parser = lark.parser.parser.parser
    table = parser.parse_table
    if sorted(table.states) != list(range(len(table.states))):
        raise Unsupported
    rules, index = [], {}
    for rule, cb in parser.callbacks.items():
        index[id(rule)] = len(rules)
        rules.append([len(rule.expansion), rule.origin.name, _spec(rule, cb, builder)])
    states = [{kind: arg if action is Shift else ~index[id(arg)]
               for kind, (action, arg) in table.states[s].items()}
              for s in range(len(table.states))]
    return {"rules": rules, "states": states, "start": dict(table.start_states),
            "end": dict(table.end_states)}


def _spec(rule, cb, builder):
    """How lark built rule's callback, outermost wrapper first; None for a chain rule
    (`?a: b`, whose callback returns its only child)."""
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, \
        ExpandSingleChild
    if len(rule.expansion) == 1 and type(cb) is ExpandSingleChild:
        return None
    steps = []
    while True:
        if type(cb) is ExpandSingleChild:
            steps.append(["expand1"])
        elif type(cb) is ChildFilterLALR:
            steps.append(["filter", [list(x) for x in cb.to_include], cb.append_none])
        elif type(cb) is ChildFilterLALR_NoPlaceholders:
            steps.append(["filter_np", [list(x) for x in cb.to_include]])
        else:
            steps.append(_user_step(rule, cb, builder))
            return steps
        cb = cb.node_builder


def _user_step(rule, cb, builder) -> list:
    name = rule.alias or rule.options.template_source or rule.origin.name
    if isinstance(cb, partial) and cb.args == (name,) and not cb.keywords and \
            cb.func.__name__ == "default_callback" and not hasattr(builder, name):
        return ["default", name]
    method = getattr(builder, name, None)
    if method is None or cb != method or hasattr(method, "visit_wrapper"):
        raise Unsupported
    return ["method", name]


def callback(spec, builder):
    """The callback spec describes, built as lark's ParseTreeBuilder builds it (with the
    wrappers below, which do what lark's namesakes do)."""
    name = spec[-1][1]
    f = getattr(builder, name, None)  # looked up now, as lark does: the builder may have changed
    if f is None:
        f = partial(_default, builder, name)
    elif hasattr(f, "visit_wrapper"):
        raise ValueError(f"{name} has a visit_wrapper, which the fast parser does not apply")
    for kind, *args in reversed(spec[:-1]):
        if kind == "expand1":
            f = partial(_expand_single_child, f)
        elif kind == "filter":
            f = partial(_child_filter, [tuple(x) for x in args[0]], args[1], f)
        else:
            f = partial(_child_filter_np, [tuple(x) for x in args[0]], f)
    return f


def _expand_single_child(node_builder, children):
    """lark's ExpandSingleChild: a rule with one child is that child."""
    if len(children) == 1:
        return children[0]
    return node_builder(children)


def _child_filter(to_include, append_none, node_builder, children):
    """lark's ChildFilterLALR: keep the children to_include lists, splice in the children
    of inlined rules, and put None where an optional part is missing."""
    filtered = []
    for i, to_expand, add_none in to_include:
        if add_none:
            filtered += [None] * add_none
        if to_expand:
            if filtered:
                filtered += children[i].children
            else:  # lark's optimization for left recursion (it adopts the list)
                filtered = children[i].children
        else:
            filtered.append(children[i])
    if append_none:
        filtered += [None] * append_none
    return node_builder(filtered)


def _child_filter_np(to_include, node_builder, children):
    """lark's ChildFilterLALR_NoPlaceholders: _child_filter without the Nones."""
    filtered = []
    for i, to_expand in to_include:
        if to_expand:
            if filtered:
                filtered += children[i].children
            else:
                filtered = children[i].children
        else:
            filtered.append(children[i])
    return node_builder(filtered)


def _default(builder, data, children):
    """lark's default callback for a rule the transformer has no method for."""
    return builder.__default__(data, children, None)


def load(path: str) -> dict | None:
    """The data saved at path, or None if there is none of this format."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if type(data) is dict and data.get("format") == FORMAT else None
