"""Every Tensor property TorchScript compiles, read from a real and a complex tensor
(test_builtins' property sweep, except dtype and layout, which TorchScript returns as
ints)."""

import torch

PROPS = ["H", "T", "data", "device", "grad", "is_cpu", "is_cuda", "is_ipu", "is_leaf",
         "is_maia", "is_meta", "is_mkldnn", "is_mps", "is_mtia", "is_nested", "is_quantized",
         "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu", "itemsize", "mH", "mT",
         "name", "nbytes", "ndim", "real", "requires_grad", "retains_grad", "shape"]
X = torch.arange(4, dtype=torch.float).view(2, 2)
Z = torch.tensor([[1 + 2j, 3j], [1, 2]])

CASES = [(f"\ndef fn(x):\n    return x.{p}\n", [(X,), (Z,)]) for p in PROPS
         if p != "device"]
CASES.append(("\ndef fn(x):\n    return str(x.device)\n", [(X,)]))
