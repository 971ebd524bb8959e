"""The archive reader imports only ember.errors, numpy and the standard library: no torch,
no pickle, nothing of the compiler."""

import subprocess
import sys
import textwrap


def test_reader_imports_nothing_of_the_compiler_nor_pickle():
    code = textwrap.dedent("""
        import importlib.abc, sys
        BLOCKED = ("torch", "lark", "ember.frontend", "ember.ir",
                   "ember.passes", "ember.interpreter", "ember.api", "ember.nn",
                   "ember.mobile")
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if any(name == b or name.startswith(b + ".") for b in BLOCKED):
                    raise ImportError(name + " is blocked")
        sys.meta_path.insert(0, Block())
        import ember.torchscript.archive
        loaded = [m for m in sys.modules if m.startswith("ember.")]
        print(sorted(loaded))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "ember.torchscript.archive" in r.stdout


def test_reader_sources_import_only_errors_numpy_and_stdlib():
    import ast
    import pathlib

    import ember.torchscript as pkg
    folder = pathlib.Path(pkg.__file__).parent
    allowed_ember = {"ember.errors", "ember.torchscript.archive", "ember.torchscript.unpickle",
                     "ember.torchscript.zipread"}
    for name in ("archive.py", "unpickle.py", "zipread.py"):
        tree = ast.parse((folder / name).read_text())
        for node in ast.walk(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) else []
            for m in mods:
                assert m not in ("pickle", "_pickle", "marshal", "shelve"), (name, m)
                assert not m.startswith("ember") or m in allowed_ember, (name, m)
                assert not m.startswith("torch"), (name, m)
