"""Upstream's experimental namespaces (``asc.experimental.asctile``: the August 2026 tile API)."""
