"""Nightly and generate: the per-cell pipeline (data in, record out; rebase, sync, retention, commit),
the nightly run and its pytest-xdist plugin, the generative evaluation, and the Dask cluster they share.
Imports ``common``, ``store`` and ``run``; the report steps a run ends with are handed in by the
composing command (:mod:`asc_harness.nightly`, :mod:`asc_harness.generate`)."""
