"""lark's table cache (a pickle lark loads) lives only in a private per-user folder."""

from __future__ import annotations

import os
import tempfile

from ember.frontend import parser


def _grammar():
    return os.path.join(os.path.dirname(parser.__file__), "grammar.lark")


def test_cache_is_in_a_private_folder_not_the_temp_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = parser._table_cache(_grammar())
    assert path and path.startswith(str(tmp_path / "ember"))
    assert not path.startswith(tempfile.gettempdir() + os.sep + ".lark")
    assert os.stat(tmp_path / "ember").st_mode & 0o077 == 0


def test_no_cache_in_a_folder_others_can_write(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "ember").mkdir()
    os.chmod(tmp_path / "ember", 0o777)
    assert parser._table_cache(_grammar()) is False


def test_no_cache_where_nothing_can_be_created(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file, not a folder
    assert parser._table_cache(_grammar()) is False
