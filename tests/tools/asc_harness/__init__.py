"""Capability harness for asc2 kernels.

Runs kernel files in sandboxed subprocesses (never importing compiler internals), records one JSON
evidence record per run, and derives the statuses in ``capabilities.yaml`` from that evidence.

Modules: ``paths`` (the repository-root rule), ``registry`` (capabilities.yaml), ``evidence``
(records), ``sandbox`` (bubblewrap-confined runs), ``runner`` (kernel runs), ``status`` (status rules),
``pipeline`` (one cell as data in / record out; rebase, sync, dashboard, matrix, commit),
``dashboard_data`` / ``dashboard_render`` (the site), and the command-line tools ``run_kernel``,
``sync_capabilities``, ``check_capabilities``, ``matrix``, ``nightly``, ``generate`` and ``dashboard``.
"""

SCHEMA_VERSION = 1
