"""Load-time checks of an artifact's quantized weights (docs/quantization.md).

An int8 layer's codes, scales and zero points are ordinary constants of the program: its
int8 operators take them as arguments. After verification, each function's code is read
once in order; a register last set by LOADK holds that constant (a LIST of such registers,
a list of them), and every call of an int8 operator has the constants it receives
checked: codes int8 of the right rank, scales float32, finite and positive, one per
output channel (or one), zero points inside their code range. A bad artifact is an
ArtifactError at load, never a wrong answer or a crash at run time.
"""

from __future__ import annotations

import math

import numpy as np

from ember.errors import ArtifactError
from ember.mobile.opcodes import WRITES_A, Op, decode

# operator -> {argument index: check}; ("codes", rank), ("scales", codes argument),
# "scale", "zp", ("params", per group)
_SPECS = {
    "tensor.quantized_linear_dynamic": {1: ("codes", 2), 2: ("scales", 1)},
    "tensor.quantized_linear_dynamic_relu": {1: ("codes", 2), 2: ("scales", 1)},
    "tensor.dequantize_weight": {0: ("codes", None), 1: ("scales", 0)},
    "tensor.quantized_linear": {1: "scale", 2: "zp", 3: ("codes", 2), 4: ("scales", 3),
                                6: "scale", 7: "zp"},
    "tensor.quantized_conv2d": {1: "scale", 2: "zp", 3: ("codes", 4), 4: ("scales", 3),
                                6: "scale", 7: "zp"},
    "tensor.quantize_per_tensor": {1: "scale", 2: "zp"},
    "tensor.dequantize_codes": {1: "scale", 2: "zp"},
    "tensor.quantized_add": {1: "scale", 2: "zp", 4: "scale", 5: "zp", 6: "scale", 7: "zp"},
    "tensor.quantized_mul": {1: "scale", 2: "zp", 4: "scale", 5: "zp", 6: "scale", 7: "zp"},
    "tensor.quantized_relu": {1: "zp"},
    "tensor.quantized_adaptive_avg_pool2d": {2: "zp"},
    "tensor.quantized_relu6": {1: "scale", 2: "zp"},
    "tensor.quantized_hardswish": {1: "scale", 2: "zp", 3: "scale", 4: "zp"},
    "tensor.quantized_cat": {4: "scale", 5: "zp"},
    "tensor.quantized_lstm_dynamic": {2: ("params", 6)},
    "tensor.quantized_gru_dynamic": {2: ("params", 6)},
}


def check_quantized(program) -> None:
    """ArtifactError if an int8 operator of program receives bad constant qparams."""
    wanted = {i: _SPECS[name] for i, name in enumerate(program.operators) if name in _SPECS}
    if not wanted:
        return
    for f in program.functions:
        _check_function(program, f, wanted)


def _check_function(program, f, wanted):
    regs: dict = {}
    pc = 0
    while pc < len(f.code):
        op, operands, nxt = decode(f.code, pc)
        if op == Op.LOADK:
            regs[operands[0]] = ("k", _const(program, f.consts[operands[1]]))
        elif op == Op.LIST:
            regs[operands[0]] = ("list", [regs.get(r) for r in operands[1]])
        else:
            if op == Op.KCALL and operands[1] in wanted:
                where = f"{program.operators[operands[1]]} in {f.name!r:.60} at pc {pc}"
                _check_call(wanted[operands[1]], [regs.get(r) for r in operands[2]], where)
            if op in WRITES_A:
                regs.pop(operands[0], None)
        pc = nxt


def _const(program, c):
    if isinstance(c, tuple) and len(c) == 2 and c[0] == "tensor":
        return program.tensors[c[1]][1]
    return c


def _value(entry):
    return entry[1] if entry is not None and entry[0] == "k" else None


def _check_call(spec, args, where):
    for i, check in spec.items():
        if i >= len(args):
            continue
        if check == "scale":
            _scale(_value(args[i]), where)
        elif check == "zp":
            _zero_point(_value(args[i]), where)
        elif check[0] == "codes":
            _codes(_value(args[i]), check[1], where)
        elif check[0] == "scales":
            _scales(_value(args[i]), _value(args[check[1]]), where)
        elif check[0] == "params":
            entry = args[i]
            if entry is not None and entry[0] == "list":
                _params(entry[1], where)


def _scale(v, where):
    if isinstance(v, float) and not (math.isfinite(v) and v > 0):
        raise ArtifactError(f"{where}: quantization scale {v!r} is not finite and positive")


def _zero_point(v, where):
    if isinstance(v, int) and not isinstance(v, bool) and not -128 <= v <= 255:
        raise ArtifactError(f"{where}: zero point {v} is outside the int8 / uint8 codes")


def _codes(a, rank, where):
    if not isinstance(a, np.ndarray):
        return
    if a.dtype != np.int8 or (rank is not None and a.ndim != rank):
        raise ArtifactError(f"{where}: int8 weight codes expected, found a {a.dtype} tensor "
                            f"of shape {list(a.shape)}")


def _scales(s, codes, where):
    if not isinstance(s, np.ndarray):
        return
    if s.dtype != np.float32 or s.ndim != 1 or s.size == 0:
        raise ArtifactError(f"{where}: weight scales must be a float32 vector, found "
                            f"{s.dtype} of shape {list(s.shape)}")
    if not (np.all(np.isfinite(s)) and np.all(s > 0)):
        raise ArtifactError(f"{where}: weight scales are not all finite and positive")
    if isinstance(codes, np.ndarray) and codes.ndim and s.size not in (1, codes.shape[0]):
        raise ArtifactError(f"{where}: {s.size} weight scales for {codes.shape[0]} output "
                            "channels")


def _params(entries, where):
    vals = [_value(e) for e in entries]
    if len(vals) % 6:
        raise ArtifactError(f"{where}: {len(vals)} recurrent parameters, not groups of 6")
    for k in range(0, len(vals), 6):
        w_ih, s_ih, _, w_hh, s_hh, _ = vals[k:k + 6]
        _codes(w_ih, 2, where)
        _scales(s_ih, w_ih, where)
        _codes(w_hh, 2, where)
        _scales(s_hh, w_hh, where)
