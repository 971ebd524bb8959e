"""ember.quantize: int8 models as an IR rewrite of the frozen module (docs/quantization.md)."""

from __future__ import annotations

from ember.errors import UnsupportedError

MODES = ("dynamic", "weight_only", "static", "qat")


def quantize(model, mode: str, calibration=None, observer: str = "histogram",
             per_channel: bool = True, backend: str = "vm", report: bool = False):
    """A scripted int8 module made from `model` (a torch.nn.Module, an ember.nn.Module or a
    ScriptModule), saved, loaded and run like any other.

    mode="dynamic": Linear, LSTM and GRU weights int8 (symmetric, per output channel unless
    per_channel=False), activations quantized per call — torch.ao's quantize_dynamic, bit
    for bit (per_channel=False is its default qconfig, True its per_channel_dynamic_qconfig).
    mode="weight_only": linear, convolution and recurrent weights stored int8, dequantized
    once at load; compute stays float32.
    report=True prints what runs in int8 and what stays float (with source lines) and the
    weights' size; the report is also `result.quantization_report`."""
    from ember.api.core import _check_backend
    from ember.api.modules import ScriptModule, _Compiled, _copy, script_module
    _check_backend(backend)
    _check_mode(mode, calibration)
    if isinstance(model, ScriptModule):
        if not model.frozen:
            from ember.api.modules import freeze
            model = freeze(model)
        module, entries = _copy(model.module), list(model.entries)
    else:
        from ember.api.modules import is_scriptable_module
        if not is_scriptable_module(model):
            raise UnsupportedError(f"ember.quantize takes a torch.nn.Module, an ember.nn.Module "
                                   f"or a ScriptModule, not {type(model).__name__}")
        sm = script_module(model)
        module, entries = sm.module, list(sm.entries)
    from ember.passes.freeze import prune_symbols
    from ember.passes.quantize import quantize_module
    from ember.passes.manager import PassManager
    rep = quantize_module(module, mode, per_channel)
    PassManager("dce", verify_each=False).run(module)  # the float weights' dead constants
    prune_symbols(module)
    result = ScriptModule(_Compiled(module, True), entries, frozen=True)
    result.__dict__["quantization_report"] = rep
    if report:
        print(rep)
    return result


def _check_mode(mode, calibration):
    if mode == "qat":
        raise UnsupportedError(
            "ember.quantize(mode='qat') needs gradients through the IR (the autodiff issue, "
            "'Autodiff over the IR'), which has not landed; use mode='static' with "
            "calibration batches, or 'dynamic'")
    if mode == "static":
        raise UnsupportedError(
            "ember.quantize(mode='static') is not built yet: its int8 kernels exist "
            "(ember.ops.tensor_quant: conv2d, linear, add, mul, cat, bit-exact with torch's "
            "fbgemm) but the calibration and quantize/dequantize placement pass do not; use "
            "mode='dynamic' or 'weight_only', or convert a torch.ao static model with "
            "ember.script")
    if mode not in MODES:
        raise UnsupportedError(f"ember.quantize: unknown mode {mode!r}; expected one of "
                               f"{', '.join(MODES)}")
    if calibration is not None:
        raise UnsupportedError(f"ember.quantize(mode={mode!r}) takes no calibration batches "
                               "(only mode='static' calibrates)")
