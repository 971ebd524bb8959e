"""Where ember keeps its private on-disk caches: `$XDG_CACHE_HOME/ember` (else
`~/.cache/ember`), created mode 0700 and used only while it belongs to this user and no one
else can write to it — never the shared temporary directory, where another user could
plant an entry. `EMBER_CACHE=0` in the environment turns every cache off.

Stdlib only: the frontend's parse cache and the LLVM backend's object cache both use it.
"""

from __future__ import annotations

import os

_FOLDER: dict = {}
"""XDG_CACHE_HOME value -> the checked folder (or False), so each process checks once."""


def folder():
    """The private cache folder, or False if there is none (or the cache is turned off)."""
    if os.environ.get("EMBER_CACHE") == "0":
        return False
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    found = _FOLDER.get(base)
    if found is None:
        found = _FOLDER[base] = _private_folder(os.path.join(base, "ember"))
    return found


def _private_folder(path: str):
    import stat

    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != getattr(os, "getuid", lambda: 0)() or \
            st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return path
