"""``nightly``: the batch stage's nightly run ending in the report stage's dashboard and matrix.

The command composes the two stages so that the batch stage never imports the report stage; the run
itself is :mod:`asc_harness.batch.nightly`.
"""

from asc_harness.batch import nightly as _nightly
from asc_harness.batch.pipeline import Reports
from asc_harness.report import dashboard, matrix

REPORTS = Reports(dashboard=dashboard.main, matrix=matrix.main)


def main(argv=None) -> int:
    return _nightly.main(argv, reports=REPORTS)


if __name__ == "__main__":
    raise SystemExit(main())
