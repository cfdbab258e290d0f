"""Capability harness for asc2 kernels.

Runs kernel files in sandboxed subprocesses (never importing compiler internals), records one JSON
evidence record per run, and derives the statuses in ``capabilities.yaml`` from that evidence.

Stages (sub-packages), each importing only the ones before it (tests/harness/test_structure.py):
``common`` (errors, the repository-root rule, stop signals) -> ``store`` (registry and evidence) ->
``run`` (running a kernel: sandbox, engines, runner) -> ``batch`` (nightly and generate: pipeline,
cluster) -> ``report`` (dashboard, matrix); ``conform`` (conformance against pyasc-dev) sits beside
``batch`` on top of ``run``. The top-level ``nightly`` and ``generate`` modules are the commands that end a
batch run with the report steps.
"""

SCHEMA_VERSION = 1
