"""Running a kernel: the sandbox and repository snapshots, engines, the runner and its in-sandbox probe,
traces and their checks, the perf gate and the ``run_kernel`` CLI. Imports ``common`` and ``store``."""
