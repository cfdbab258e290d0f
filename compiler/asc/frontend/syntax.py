"""Python syntax kernels cannot use, with the fix hint of each (pyasc's visitor rejects them)."""

SYNTAX_HINTS = {
    "Break": "kernel loops cannot exit early: restructure the loop (compute the trip count up front)",
    "Continue": "wrap the rest of the loop body in an `if` instead",
    "Raise": "use `assert condition, message` on compile-time values",
    "Try": "remove the try block; errors are reported at trace time",
    "Lambda": "define a module-level function decorated with @jit and call it",
    "ListComp": "write an explicit loop, or build the list on the host and pass it as asc.ConstExpr",
    "Import": "import modules at the top of the file, outside the kernel",
    "ImportFrom": "import modules at the top of the file, outside the kernel",
    "SetComp": "write an explicit loop, or build the values on the host and pass them as asc.ConstExpr",
    "DictComp": "write an explicit loop, or build the dict on the host and pass it as asc.ConstExpr",
    "GeneratorExp": "write an explicit loop, or build the values on the host and pass them as asc.ConstExpr",
    "Dict": "build the dict on the host and pass it as asc.ConstExpr",
    "Set": "use a tuple, or build the set on the host and pass it as asc.ConstExpr",
    "Global": "read module-level constants directly; kernels cannot rebind globals",
    "Nonlocal": "kernels cannot rebind outer names: pass values as arguments",
    "Delete": "names cannot be deleted in kernels; just stop using the value",
    "NamedExpr": "assign in a separate statement before the expression",
    "Yield": "kernels write results with @store; helpers return a value with return",
    "Match": "use if / elif on compile-time values",
    "AsyncFor": "use a plain for-loop over @range",
    "AsyncWith": "use `with @mask(...)`",
    "Await": "kernels are not coroutines: call operations directly",
}


