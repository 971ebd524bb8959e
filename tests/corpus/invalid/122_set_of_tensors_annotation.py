# error: TypeCheckError
# line: 6
# match: must be hashable
from typing import Set
import torch
def f(s: Set[torch.Tensor]) -> int:
    return len(s)


ENTRY = "f"
