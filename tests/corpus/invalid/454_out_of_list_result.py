# error: TypeCheckError
# line: 9
# match: out= is only for an operator returning a Tensor
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros(2)
    torch.chunk(x, 2, out=y)
    return y


ENTRY = "f"
