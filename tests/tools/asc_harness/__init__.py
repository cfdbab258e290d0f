"""Capability harness for asc2 kernels.

Runs kernel files in sandboxed subprocesses (never importing compiler internals), records one JSON
evidence record per run, and derives the statuses in ``capabilities.yaml`` from that evidence.

Modules: ``registry`` (capabilities.yaml), ``evidence`` (records), ``sandbox`` (isolated runs),
``runner`` (kernel runs), ``status`` (status rules), and the command-line tools ``run_kernel``,
``sync_capabilities``, ``check_capabilities`` and ``matrix``.
"""

SCHEMA_VERSION = 1
