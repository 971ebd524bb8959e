"""ember's IR: typed SSA values, ops with structured regions, printer, parser, verifier."""

from ember.ir import types
from ember.ir.builder import IRBuilder, new_region
from ember.ir.core import Block, BlockArg, Loc, Op, OpResult, Region, SymbolRef, Use, Value
from ember.ir.module import ClassDecl, Module, ObjectConst, TensorConst
from ember.ir.ops import FuncOp, KernelOp, create_op, op_class
from ember.ir.parser import parse_module, parse_type
from ember.ir.printer import print_func, print_module
from ember.ir.verifier import verify_func, verify_module

__all__ = [
    "types", "IRBuilder", "new_region", "Block", "BlockArg", "Loc", "Op", "OpResult", "Region",
    "SymbolRef", "Use", "Value", "ClassDecl", "Module", "ObjectConst", "TensorConst", "FuncOp", "KernelOp",
    "create_op", "op_class", "parse_module", "parse_type", "print_func", "print_module",
    "verify_func", "verify_module",
]
