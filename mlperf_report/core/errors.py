"""The tool's own exception hierarchy: errors a user can fix, printed as one line with the fix."""


class UserError(Exception):
    """A problem the user can fix (bad option, missing file); build.py prints it without a traceback."""


class InputError(UserError):
    """An input file is missing or malformed; the message names the file and what is wrong."""
