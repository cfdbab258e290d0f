"""Shared ground of every stage: the harness error type, the repository-root rule and the stop signal
(Ctrl-C / SIGTERM) the running commands share. Imports nothing else of the harness."""
