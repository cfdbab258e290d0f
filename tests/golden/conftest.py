"""Marker of the golden-case tests: ``full_only`` cases are the large shapes the quick harness run skips."""


def pytest_configure(config):
    config.addinivalue_line("markers", "full_only: a golden case with a large shape (skipped by quick harness runs)")
