# error: TypeCheckError
# line: 8
# match: memory_format= takes a torch memory format or layout constant
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    return x.clone(memory_format=3)


ENTRY = "f"
