"""The tool's own exception hierarchy: errors a user can fix, printed as one line with the fix; and
notices (a problem the build goes on past) printed once however often they come up."""

import sys


class UserError(Exception):
    """A problem the user can fix (bad option, missing file); build.py prints it without a traceback."""


class InputError(UserError):
    """An input file is missing or malformed; the message names the file and what is wrong."""


#: The notices this process has printed (``say_once``).
_SAID: set[str] = set()


def say_once(line: str) -> None:
    """Print ``line`` on stderr the first time this process is given it: a batch reads the brand
    file and renders the citations' notices for every focus, and each problem is said once."""
    if line not in _SAID:
        _SAID.add(line)
        print(line, file=sys.stderr)
