"""source_of finds a class's lines without inspect's slow passes, and finds the same lines."""

from __future__ import annotations

import importlib.util
import inspect
import sys

from ember.frontend import source as S

TRICKY = '''
import functools


class Plain:
    x = 1

    def f(self):
        return 2
        # inside, indented like the method body
    # indented like the class body
# at column 0: not part of the class
    # but this one is again


class OneLine: pass
# after a one-liner


class Header(
        object):
    y = 2


class HeaderSameLine(
        object): z = 3


@functools.total_ordering
class Decorated:
    @staticmethod
    def g():
        return 1

    def __lt__(self, o):
        return False


class Outer:
    class Inner:
        a = 1
        # inner comment

    b = 2


def factory():
    class Local:
        c = 3
    return Local


if True:
    class Twice:
        first = 1
else:
    class Twice:
        second = 2

try:
    class InTry:
        d = 4
except ImportError:
    class InTry:
        e = 5


class Docstring:
    """doc"""


class AtEnd:
    last = 1
    # trailing at the end of the file
'''


def _load(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def test_class_lines_match_inspect(tmp_path):
    m = _load(tmp_path, "ember_tricky_classes", TRICKY)
    try:
        classes = [v for v in vars(m).values() if isinstance(v, type)]
        classes += [m.Outer.Inner, m.factory()]
        assert len(classes) >= 12
        for cls in classes:
            found = S._class_source_lines(cls)
            assert found is not None, cls
            assert found == inspect.getsourcelines(cls), cls
    finally:
        del sys.modules["ember_tricky_classes"]


def test_library_classes_match_inspect():
    import ember.nn as enn
    for cls in (enn.Linear, enn.Conv2d, enn.BatchNorm2d, enn.LSTM, enn.Sequential):
        assert S._class_source_lines(cls) == inspect.getsourcelines(cls)


def test_changed_file_is_read_again(tmp_path):
    m = _load(tmp_path, "ember_changing_class", "class A:\n    x = 1\n")
    try:
        assert S._class_source_lines(m.A)[0] == ["class A:\n", "    x = 1\n"]
        (tmp_path / "ember_changing_class.py").write_text("\n\nclass A:\n    x = 2\n")
        m = _load(tmp_path, "ember_changing_class", "\n\nclass A:\n    x = 2\n")
        assert S._class_source_lines(m.A) == inspect.getsourcelines(m.A)
        assert S._class_source_lines(m.A)[1] == 3
    finally:
        del sys.modules["ember_changing_class"]
