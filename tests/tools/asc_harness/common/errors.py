"""Error types shared by the harness tools."""


class HarnessError(Exception):
    """A problem caused by the user's input (bad file, bad flag, missing path).

    Command-line tools print ``str(error)`` on one line and exit with ``exit_code`` instead of showing
    a traceback.
    """

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.exit_code = exit_code
