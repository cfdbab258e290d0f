"""``python -m asc_harness.retention``, the path earlier READMEs named: see :mod:`asc_harness.store.retention`."""

from asc_harness.store.retention import main

if __name__ == "__main__":
    raise SystemExit(main())
