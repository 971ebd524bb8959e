"""Getting the source of Python functions and classes, dedented, with file positions."""

from __future__ import annotations

import ast as pyast
import inspect
import linecache
import textwrap
import warnings

from ember.errors import Source, UnsupportedError
from ember.frontend import diskcache


def parse_quietly(text: str):
    """CPython's tree of a source text, without the warnings Python already gave when it
    compiled that file (torch's docstrings hold non-raw "\\{" escapes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pyast.parse(text)


def source_of(obj) -> Source:
    """The Source of a function or class: file, first line, dedented text, column offset."""
    try:
        found = _class_source_lines(obj) if isinstance(obj, type) else \
            _function_source_lines(obj)
        lines, first_line = found or inspect.getsourcelines(obj)
        filename = inspect.getsourcefile(obj) or inspect.getfile(obj)
    except (OSError, TypeError) as e:
        found = _class_lines(obj) if isinstance(obj, type) else None
        if found is None:
            name = getattr(obj, "__qualname__", repr(obj))
            raise UnsupportedError(
                f"cannot read the source of {name} ({e}); ember compiles from source: define "
                "it in a .py file, or pass the source text to ember.CompilationUnit") from None
        lines, first_line, filename = found
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    col_offset = _common_indent(text)
    return Source(filename, dedented, max(first_line, 1), col_offset)


def _class_source_lines(cls):
    """inspect.getsourcelines(cls), found without inspect's pure-Python passes over the
    file (a visitor over every node of its tree, then tokenizing the class to find its
    end): the file's classes are indexed once per file text, and a class ends where its
    last statement does, plus the comment lines after it that inspect counts in. None
    where this does not apply (inspect then answers)."""
    return _indexed_lines(cls, lambda index: index.get(cls.__qualname__))


def _function_source_lines(fn):
    """inspect.getsourcelines(fn) for a def (not a lambda) found in the same index, by the
    line its code starts on (its first decorator's, as inspect starts there), without
    tokenizing the function to find its end. None where this does not apply."""
    code = getattr(fn, "__code__", None)
    if code is None or not inspect.isfunction(fn) or fn.__name__ == "<lambda>":
        return None
    return _indexed_lines(fn, lambda index: index.get(f"@{code.co_firstlineno}"))


def _indexed_lines(obj, pick):
    file = inspect.getsourcefile(obj)
    if not file or inspect.unwrap(obj) is not obj:
        return None
    linecache.checkcache(file)
    module = inspect.getmodule(obj, file)
    lines = linecache.getlines(file, module.__dict__) if module else linecache.getlines(file)
    found = pick(_class_index(file, lines)) if lines else None
    if found is None:
        return None
    first, end, body_col = found
    last = _block_end(lines, end, body_col)
    return (lines[first - 1:last], first) if last is not None else None


_INDEX: dict = {}
"""file -> (its lines as linecache gave them, {qualname: (first line, last statement's
end line, body column or None)} for the first class of each qualname, and the same under
"@<first line>" for each def)."""


def _class_index(file: str, lines: list) -> dict:
    hit = _INDEX.get(file)
    if hit is not None and hit[0] is lines:
        return hit[1]
    text = "".join(lines)
    key = diskcache.digest(_INDEX_FORMAT, text)
    index = _checked_index(diskcache.load("classes", key))
    if index is None:
        index = {}
        try:
            _index_classes(parse_quietly(text).body, [], index, lines)
        except (SyntaxError, ValueError, RecursionError):
            index = {}
        diskcache.store("classes", key, index)
    _INDEX[file] = (lines, index)
    return index


_INDEX_FORMAT = "class-index-2"


def _checked_index(data):
    """A class index read from the disk cache (lists for tuples), or None if malformed."""
    if type(data) is not dict:
        return None
    index = {}
    for name, entry in data.items():
        if type(entry) is not list or len(entry) != 3 or \
                any(type(n) is not int for n in entry[:2]) or \
                not (entry[2] is None or entry[2] is False or type(entry[2]) is int):
            return None
        index[name] = tuple(entry)
    return index


def _index_classes(stmts, stack: list, index: dict, lines: list) -> None:
    """Record the classes among stmts and the statements nested in them, in the order
    inspect's _ClassFinder meets them (the first of a qualname wins)."""
    for s in stmts:
        if isinstance(s, pyast.ClassDef):
            stack.append(s.name)
            if ".".join(stack) not in index:
                first = s.decorator_list[0].lineno if s.decorator_list else s.lineno
                index[".".join(stack)] = (first, s.end_lineno, _body_col(lines, s))
            _index_classes(s.body, stack, index, lines)
            stack.pop()
        elif isinstance(s, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
            first = s.decorator_list[0].lineno if s.decorator_list else s.lineno
            index.setdefault(f"@{first}", (first, s.end_lineno, _body_col(lines, s)))
            stack += [s.name, "<locals>"]
            _index_classes(s.body, stack, index, lines)
            del stack[-2:]
        else:
            for name in ("body", "handlers", "orelse", "finalbody", "cases"):
                for item in getattr(s, name, ()):
                    _index_classes(item.body if name in ("handlers", "cases") else [item],
                                   stack, index, lines)


def _body_col(lines: list, node):
    """The column where the class body's first line starts (where tokenize's INDENT
    ends); None if the body follows the header on its line (no INDENT); False if unsure."""
    first = node.body[0]
    if getattr(first, "decorator_list", None):
        text = lines[first.decorator_list[0].lineno - 1]
        if not text.lstrip(" \t").startswith("@"):
            return False
    else:
        text = lines[first.lineno - 1]
        if not text.isascii():
            return False
        if text[:first.col_offset].strip(" \t"):
            return None
    return len(text) - len(text.lstrip(" \t"))


def _block_end(lines: list, end: int, body_col) -> int | None:
    """The last line (1-based) of inspect's block for a class whose last statement ends
    on line end: then every comment line up to the next line of code that is indented at
    least as far as the body. None for a layout this does not follow."""
    if body_col is False:
        return None
    last = end
    for row in range(end, len(lines)):
        text = lines[row]
        if "\f" in text:
            return None
        code = text.lstrip(" \t")
        if not code.strip():
            continue
        if not code.startswith("#"):
            break
        if body_col is not None and len(text) - len(code) >= body_col:
            last = row + 1
    return last


def _common_indent(text: str) -> int:
    widths = [len(line) - len(line.lstrip()) for line in text.splitlines() if line.strip()]
    return min(widths) if widths else 0


def _class_lines(cls):
    """(lines, first line, file) of a class whose module is not in sys.modules (loaded from a
    spec, as generated code often is): found through its methods' code objects."""
    import ast
    import linecache

    filename = next((f.__code__.co_filename for f in map(_function_of, vars(cls).values())
                     if f is not None), None)
    if filename is None:
        return None
    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    node = tree
    for part in cls.__qualname__.replace("<locals>.", "").split("."):
        node = next((n for n in ast.walk(node) if isinstance(n, ast.ClassDef) and
                     n.name == part), None)
        if node is None:
            return None
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    all_lines = text.splitlines(keepends=True)
    return all_lines[first - 1:node.end_lineno], first, filename


def _function_of(v):
    f = getattr(v, "__func__", v)
    return f if hasattr(f, "__code__") else None
