"""Importing TorchScript archives (`.pt` from torch.jit.save, `.ptl` from
_save_for_lite_interpreter) without torch.

`archive` reads the zip and its pickles into inert data (imports only ember.errors, numpy
and the standard library); `frontend` compiles the archive's code with ember's frontend.
"""

from ember.torchscript.archive import Archive, read_archive, read_archive_file

__all__ = ["Archive", "read_archive", "read_archive_file"]
