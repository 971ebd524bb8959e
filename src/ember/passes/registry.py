"""Pass registry: kebab-case names mapped to lazily imported pass classes.

    parse_pipeline("canonicalize,fold-constants{max-size=64},dce")

Importing ember does not import every pass; a pass module is imported the
first time its name is used.
"""

from __future__ import annotations

import dataclasses
import importlib
import re

from ember.errors import EmberError


class PipelineError(EmberError):
    """A pipeline string that names an unknown pass or option."""


class Pass:
    """Base class: `name` (kebab-case), options as dataclass fields, `run(module) -> bool`."""

    name = "<pass>"

    def run(self, module) -> bool:  # pragma: no cover - every pass overrides
        raise NotImplementedError


PASSES = {
    "canonicalize": ("ember.passes.canonicalize", "Canonicalize"),
    "fold-constants": ("ember.passes.fold_constants", "FoldConstants"),
    "dce": ("ember.passes.dce", "DeadCodeElimination"),
    "cse": ("ember.passes.cse", "CommonSubexpressionElimination"),
    "inline": ("ember.passes.inline", "Inline"),
    "freeze": ("ember.passes.freeze", "Freeze"),
    "ranges": ("ember.passes.ranges", "Ranges"),
    "version-loops": ("ember.passes.version_loops", "VersionLoops"),
    "fuse": ("ember.passes.fuse", "Fuse"),
    "fuse-epilogue": ("ember.passes.fuse_epilogue", "FuseEpilogue"),
}


def pass_class(name: str):
    if name not in PASSES:
        raise PipelineError(f"unknown pass {name!r}; passes: {', '.join(sorted(PASSES))}")
    module, cls = PASSES[name]
    return getattr(importlib.import_module(module), cls)


_ITEM = re.compile(r"\s*([a-z][a-z0-9-]*)\s*(?:\{([^}]*)\})?\s*(?:,|$)")


def parse_pipeline(text: str) -> list[Pass]:
    """Pass instances for a pipeline string."""
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _ITEM.match(text, pos)
        if not m or m.end() == pos:
            raise PipelineError(f"bad pipeline at {text[pos:]!r}")
        out.append(make_pass(m.group(1), m.group(2) or ""))
        pos = m.end()
    return out


def make_pass(name: str, options: str) -> Pass:
    cls = pass_class(name)
    kwargs = {}
    fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(cls)} \
        if dataclasses.is_dataclass(cls) else {}
    for item in filter(None, (o.strip() for o in options.split(","))):
        key, _, value = item.partition("=")
        f = fields.get(key.strip())
        if f is None:
            raise PipelineError(f"pass {name!r} has no option {key.strip()!r}")
        kwargs[f.name] = _convert(value.strip(), f.type, name, key)
    return cls(**kwargs)


def _convert(value, typ, name, key):
    try:
        if typ in (int, "int"):
            return int(value)
        if typ in (bool, "bool"):
            return {"true": True, "false": False}[value]
        if typ in (float, "float"):
            return float(value)
    except (ValueError, KeyError):
        raise PipelineError(f"bad value {value!r} for option {key!r} of pass {name!r}") from None
    return value
