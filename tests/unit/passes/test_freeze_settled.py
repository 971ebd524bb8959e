"""A module freeze_module settled skips the default pipeline's leading cleanup passes: they
would change nothing there, so the result is the full pipeline's."""

from __future__ import annotations

import copy

from ember.frontend.modules import compile_module
from ember.ir import print_module
from ember.passes.freeze import after_settled, freeze_module
from ember.passes.manager import PassManager, default_pipeline

from ..api import modules_src as M


def test_only_passes_cleanup_has_are_skipped():
    names = [p.name for p in after_settled(default_pipeline())]
    assert names == ["version-loops", "ranges", "fuse"]
    assert [p.name for p in after_settled("cse,inline{max-ops=1000},dce")] == ["inline", "dce"]
    assert [p.name for p in after_settled("inline,ranges,cse")] == ["ranges", "cse"]
    assert after_settled("canonicalize,inline{cross-file=true}") == []


def test_the_rest_of_the_pipeline_gives_the_full_pipelines_result():
    for cls in (M.Stack, M.Heads, M.Tied):
        module, _ = compile_module(cls())
        assert freeze_module(module)
        full = copy.deepcopy(module)
        PassManager(default_pipeline(), verify_each=True).run(full)
        PassManager(after_settled(default_pipeline()), verify_each=True).run(module)
        assert print_module(module) == print_module(full)
