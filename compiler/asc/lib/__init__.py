"""pyasc's host-side libraries on the Model backend: ``profiling`` (kernel durations from the tick
model, Chrome timeline traces) and ``runtime`` (device / stream / platform queries)."""
