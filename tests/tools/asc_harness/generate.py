"""``generate``: the batch stage's generative evaluation ending in the report stage's dashboard and matrix.

The command composes the two stages so that the batch stage never imports the report stage; the run
itself is :mod:`asc_harness.batch.generate`.
"""

from asc_harness.batch import generate as _generate
from asc_harness.batch.pipeline import Reports
from asc_harness.report import dashboard, matrix

REPORTS = Reports(dashboard=dashboard.main, matrix=matrix.main)


def main(argv=None) -> int:
    return _generate.main(argv, reports=REPORTS)


if __name__ == "__main__":
    raise SystemExit(main())
