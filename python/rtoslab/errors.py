"""Errors the commands turn into one line on stderr and an exit status."""


class RtoslabError(Exception):
    """A failure the user can act on: printed as one line, never as a traceback."""

    status = 1

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class BadInput(RtoslabError):
    """Unknown id, missing or malformed file, bad option value: exit status 2."""

    status = 2


class FirmwareFailed(RtoslabError):
    """The firmware faulted, locked up, hit the cycle limit or exited non-zero."""

    status = 3


class Interrupted(RtoslabError):
    status = 130
