"""The engine side of pyasc's v1 API: ``PipeOp`` programs run per block in program order (``engine``), their
numerics (``compute``), the pipe-level race detector (``ordering``) and the tick schedule (``timing``)."""
