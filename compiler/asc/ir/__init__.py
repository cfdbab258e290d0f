"""The tile IR: typed values, ops with regions, a printer and a verifier."""
from .types import ScalarType, TileType, TensorType, PtrType, Location
from .core import Value, Op, Block, Function, SourceLoc
from .builder import Builder, current_builder
from .printer import print_function
from .verifier import verify_function

__all__ = ["ScalarType", "TileType", "TensorType", "PtrType", "Location", "Value", "Op", "Block",
           "Function", "SourceLoc", "Builder", "current_builder", "print_function", "verify_function"]
