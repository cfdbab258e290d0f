"""Conformance against pyasc-dev, a stage beside running: the differential case runner and its driver,
the API-surface report and the differential fuzzer. Imports ``common``, ``store`` and ``run``."""
