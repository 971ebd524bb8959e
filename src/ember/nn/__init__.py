"""ember.nn: layers written in the scriptable subset; they run eagerly on numpy arrays and
compile with ember.script. torch is never needed (torch.nn modules given to ember.script
are converted to these)."""

from ember.nn.module import Module, ModuleDict, ModuleList, Sequential, export

__all__ = ["Module", "ModuleDict", "ModuleList", "Sequential", "export"]
