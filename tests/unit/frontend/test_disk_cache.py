"""The on-disk cache of parsed sources and class positions (diskcache.py, astcache.py): an
entry gives the same AST as parsing, a bad entry is a miss, and only file sources are kept."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

import ember
from ember.errors import Source
from ember.frontend import astcache, diskcache, parser, source

_TEXT = textwrap.dedent('''\
    import math
    from typing import List, Tuple
    def f(xs: List[int], s: str = "a\\n", *args, **kw) -> Tuple[int, complex]:
        """doc"""
        with open(s) as fh, g() as (a, b):
            pass
        t = (1, 2.5, -0.0, 1e999, 10 ** 40, 3j, b"\\x00\\xff", ..., None, True)
        y = [v for v in xs if v > 1 and not v in xs] if xs else {**kw}
        z = f"{s!r:>{len(xs)}} and {t[0]}"
        a, *b = xs[1:-1:2]
        lam = lambda q, *r: q if q is not None else r
        try:
            raise ValueError("x") from None
        except (ValueError, KeyError) as e:
            del a
        finally:
            assert xs, "msg"
        while 0 <= len(xs) < 3 != 4:
            break
        return -x ** 2 @ y, 1 + 2j
    ''')


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EMBER_CACHE", raising=False)
    parser._CACHE.clear()
    yield tmp_path / "ember"
    parser._CACHE.clear()


def _file_source(tmp_path, text=_TEXT) -> Source:
    path = tmp_path / "snippet.py"
    path.write_text(text)
    return Source(str(path), text, 3, 4)


def _entries(folder, kind="ast"):
    diskcache.flush()  # entries are written by a background thread
    return sorted(p for p in os.listdir(folder) if p.startswith(kind + "-"))


def test_encode_decode_gives_the_same_tree(tmp_path):
    src = Source(str(tmp_path / "x.py"), _TEXT, 1, 0)
    module = parser.parse_module(src)
    data = json.loads(json.dumps(astcache.encode(module)))
    assert repr(astcache.decode(data, src)) == repr(module)


def test_a_file_source_is_parsed_once_then_read_from_disk(cache, tmp_path, monkeypatch):
    src = _file_source(tmp_path)
    first = parser.parse_module(src)
    assert len(_entries(cache)) == 1
    parser._CACHE.clear()

    def no_parse(*args):
        raise AssertionError("parsed again")
    monkeypatch.setattr(parser, "_parse", no_parse)
    again = parser.parse_module(src)
    assert again is not first and repr(again) == repr(first)
    assert again.body[0].span.source is src


def test_an_edited_text_is_a_new_entry(cache, tmp_path):
    parser.parse_module(_file_source(tmp_path))
    parser.parse_module(_file_source(tmp_path, _TEXT.replace("2.5", "3.5")))
    assert len(_entries(cache)) == 2


@pytest.mark.parametrize("content", ["", "{", "[]", "[3, 0]", "[0, [3, 999, 1, 1, 1, 1]]",
                                     '[3, 0, 1, 1, 1, "x"]', "[9]", '{"a": 1}'])
def test_a_bad_entry_is_a_miss(cache, tmp_path, content):
    src = _file_source(tmp_path)
    expected = repr(parser.parse_module(src))
    (entry,) = _entries(cache)
    (cache / entry).write_text(content)
    parser._CACHE.clear()
    assert repr(parser.parse_module(src)) == expected


def test_string_sources_are_not_kept(cache):
    ember.CompilationUnit("def g(x: int) -> int:\n    return x + 1\n")
    assert not os.path.isdir(cache) or _entries(cache) == []


def test_ember_cache_0_turns_it_off(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("EMBER_CACHE", "0")
    parser.parse_module(_file_source(tmp_path))
    assert not os.path.isdir(cache) or _entries(cache) == []


def test_no_cache_in_a_folder_others_can_write(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "ember").mkdir()
    os.chmod(tmp_path / "ember", 0o777)
    assert diskcache.folder() is False
    diskcache.store("ast", "k", [1])
    diskcache.flush()
    assert os.listdir(tmp_path / "ember") == []


def test_class_positions_are_kept_and_checked(cache, tmp_path):
    text = "class A:\n    x: int = 1\n\n    class B:\n        pass\n"
    lines = text.splitlines(keepends=True)
    index = source._class_index(str(tmp_path / "m.py"), lines)
    assert index == {"A": (1, 5, 4), "A.B": (4, 5, 8)}
    (entry,) = _entries(cache, "classes")
    source._INDEX.clear()
    diskcache.flush()
    assert source._class_index(str(tmp_path / "m.py"), list(lines)) == index
    (cache / entry).write_text('{"A": [1, "5", 4]}')
    source._INDEX.clear()
    assert source._class_index(str(tmp_path / "m.py"), list(lines)) == index


def test_an_annotation_expression_is_kept_on_its_own(cache, tmp_path, monkeypatch):
    src = _file_source(tmp_path, "class A:\n    w: Optional[List[int]]\n")
    node = parser.parse_expression("Optional[List[int]]", src, 4, 8)
    (entry,) = _entries(cache)
    parser._CACHE.clear()
    monkeypatch.setattr(parser, "_parse", None)  # any parse would fail
    again = parser.parse_expression("Optional[List[int]]", src, 4, 8)
    assert repr(again) == repr(node) and (again.span.line, again.span.col) == (4, 8)


_CLASS_TEXT = '''\
class Layer(Base):
    K = (1, (2.5, "s"), None, float("inf"))
    F: Final[int] = 3
    scale: float
    w: Optional[List[int]]

    def __init__(self, n: int):
        super().__init__()
        self.n: int = n
        self.table: Dict[str, Tensor] = {}

    @torch.jit.export
    def step(self, x: Tensor) -> Tensor:
        self.count += 1
        return x

    @torch.jit._overload_method
    def forward(self, x: int) -> int:
        pass

    def forward(self, x):
        self.last = x
        return x
'''


def test_a_class_summary_is_kept_and_checked(cache, tmp_path):
    import ast as pyast

    from ember.frontend import class_summary
    from ember.frontend.overloads import is_overload_decorator

    tree = pyast.parse(_CLASS_TEXT).body[0]
    summary = class_summary.summarize(tree, _CLASS_TEXT, is_overload_decorator)
    assert summary["assigned"] == ["count", "last"]
    assert [a[:3] for a in summary["annotations"]] == [
        ["F", None, "Final[int]"], ["scale", "float", None], ["w", None, "Optional[List[int]]"], ["n", "int", None],
        ["table", None, "Dict[str, Tensor]"]]
    assert class_summary.constants(summary) == {"F": 3}  # K's float("inf") is a call
    assert summary["defs"]["step"][4] == ["torch.jit.export"]
    assert len(summary["overloads"]["forward"]) == 1 and summary["defs"]["forward"][0] == 21
    class_summary.store(_CLASS_TEXT, summary)
    diskcache.flush()
    assert class_summary.load(_CLASS_TEXT) == json.loads(json.dumps(summary))
    (entry,) = _entries(cache, "class")
    for bad in ('{"head": [1, 0, 2]}', "[]", json.dumps(dict(summary, assigned=[1]))):
        (cache / entry).write_text(bad)
        assert class_summary.load(_CLASS_TEXT) is None


def test_class_constants_keep_their_tuples(cache):
    import ast as pyast

    from ember.frontend import class_summary
    text = "class C:\n    K = (1, (2.5, 's'), None)\n    B = True\n"
    summary = class_summary.summarize(pyast.parse(text).body[0], text, lambda name: False)
    class_summary.store(text, summary)
    diskcache.flush()
    loaded = class_summary.load(text)
    assert class_summary.constants(loaded) == {"K": (1, (2.5, "s"), None), "B": True}


def test_the_cache_keeps_a_bounded_number_of_entries(cache, monkeypatch):
    monkeypatch.setattr(diskcache, "MAX_ENTRIES", 6)
    monkeypatch.setattr(diskcache, "_PRUNED", [])
    os.makedirs(cache, mode=0o700)
    for i in range(10):
        (cache / f"ast-{i:02d}.json").write_text("[]")
        os.utime(cache / f"ast-{i:02d}.json", ns=(i * 10**9, i * 10**9))
    (cache / "fast-tables-x.json").write_text("{}")
    diskcache.store("ast", "new", [1])
    diskcache.flush()
    left = sorted(os.listdir(cache))
    assert left == ["ast-05.json", "ast-06.json", "ast-07.json", "ast-08.json",
                    "ast-09.json", "ast-new.json", "fast-tables-x.json"]
    diskcache.store("ast", "newer", [1])  # once per process
    diskcache.flush()
    assert len(os.listdir(cache)) == 8


def test_the_cache_command_shows_and_clears(cache, capsys):
    from ember.cli import main
    parser.parse_module(_file_source(cache.parent))
    assert main(["cache"]) == 0
    assert "ast" in capsys.readouterr().out
    assert main(["cache", "--clear"]) == 0
    assert "deleted" in capsys.readouterr().out and _entries(cache) == []


def test_entries_are_written_by_the_time_the_process_exits(tmp_path):
    """The writer thread is not a daemon: a process that stores and exits at once still
    leaves its entries (and a forked child neither hangs nor writes the parent's)."""
    import subprocess
    import sys
    code = ("import os\nfrom ember.frontend import diskcache\n"
            "for i in range(50): diskcache.store('ast', 'e%d' % i, [i] * 100)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n    diskcache.flush(); os._exit(0)\n"
            "os.waitpid(pid, 0)\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), EMBER_CACHE="1")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    names = sorted(os.listdir(tmp_path / "ember"))
    assert len(names) == 50 and all(n.startswith("ast-e") for n in names)
