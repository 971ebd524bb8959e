"""ember.ops: every operator once — schema, flags, kernel (numpy + stdlib only).

Naming contract (shared by ops, the frontend and the runtime translator):
operators are named `<receiver>.<verb>` (int.add, str.split, list.append,
tensor.relu). Python spellings are attached as qualnames so the type checker
finds overloads: dunders of the Python type ("int.__add__"), builtins
("builtins.len"), methods ("list.append"), module functions ("math.sqrt"),
torch functions ("torch.relu", "torch.nn.functional.relu") and tensor
methods ("Tensor.relu"). One qualname may have several overloads; the type
checker takes the first whose schema matches.

int is 64-bit: int.add/sub/mul/pow/lshift/neg/abs/floordiv raise
`int64.overflow_error(symbol, a, b)` when the exact result leaves int64;
`int ** int` with a negative exponent raises ValueError. // and % are
CPython's. The runtime inlines the hottest scalar operators and must behave
exactly like these kernels.
"""

from ember.ops import (  # noqa: F401  (importing registers the operators)
    scalar_builtins,
    scalar_complex,
    scalar_iter,
    scalar_containers,
    scalar_num,
    scalar_sets,
    scalar_str,
    tensor_act_grad,
    tensor_activation,
    tensor_attention,
    tensor_attention_grad,
    tensor_complex,
    tensor_conv,
    tensor_conv_grad,
    tensor_conv_transpose,
    tensor_create,
    tensor_distance,
    tensor_elementwise,
    tensor_embedding_bag,
    tensor_extra,
    tensor_extra_grad,
    tensor_fold,
    tensor_fused,
    tensor_grad,
    tensor_index,
    tensor_join,
    tensor_linalg,
    tensor_logic,
    tensor_loss,
    tensor_loss_grad,
    tensor_math,
    tensor_more,
    tensor_more_grad,
    tensor_nn,
    tensor_norm_grad,
    tensor_order,
    tensor_pool,
    tensor_pool_grad,
    tensor_quant,
    tensor_quant_dynamic,
    tensor_reduce,
    tensor_resize,
    tensor_rnn,
    tensor_rnn_grad,
    tensor_rnn_train,
    tensor_shape,
    tensor_shape_grad,
)
from ember.ops.registry import (
    REGISTRY,
    OpDef,
    ShapeMismatch,
    all_ops,
    by_python_name,
    get,
    on_true,
    on_true_rules,
    op,
    register,
)
from ember.ops.scalar_builtins import (
    EXCEPTION_CLASSES,
    ExceptionNames,
    exception_class,
    exception_matches,
)

__all__ = [
    "EXCEPTION_CLASSES",
    "ExceptionNames",
    "exception_class",
    "REGISTRY",
    "OpDef",
    "ShapeMismatch",
    "all_ops",
    "by_python_name",
    "exception_matches",
    "get",
    "on_true",
    "on_true_rules",
    "op",
    "register",
]
