# error: TypeCheckError
# line: 8
# match: return_inverse= must be a constant True or False here
import torch


def f(x: torch.Tensor, flag: bool) -> torch.Tensor:
    return torch.unique(x, return_inverse=flag)


ENTRY = "f"
