"""MLCommons' compliance checker, run as written but without redoing the same work for every file.

The checker (``mlperf_logging.compliance_checker.mlp_compliance``) parses its rule YAML again for
every result file it checks and compiles each rule's Python expression again for every log line it
applies to (``eval`` / ``exec`` of a string); on a cold ingest of a round that was 45 % and then 55 %
of the time. Installed into the checker's module, these two stand-ins change nothing it computes:
a rule file is parsed once per process and file version and every call gets a fresh copy of what it
parses to; a rule's text is compiled once and the compiled code run with the same globals and locals
(``eval`` of a string strips leading blanks first, as the built-in does). The tables this produces
are the checked-in ``data/`` byte for byte (``tests/suites/training/test_real_data.py``).
"""

from __future__ import annotations

import builtins
import os
from functools import lru_cache


def install(checker_module) -> None:
    """Give the checker's module the parse-once ``yaml`` and compile-once ``eval`` / ``exec``."""
    if not isinstance(checker_module.yaml, ParsedRules):
        checker_module.yaml = ParsedRules(checker_module.yaml)
    checker_module.eval = compiled_eval
    checker_module.exec = compiled_exec


class ParsedRules:
    """The ``yaml`` module with each rule file parsed once per process: known by its path, size and
    modification time (an amended copy of a rule file is another path)."""

    def __init__(self, yaml_module):
        self._yaml = yaml_module
        self._parsed: dict[tuple, object] = {}

    def load(self, stream, Loader):  # noqa: N803 - PyYAML's own keyword
        name = getattr(stream, "name", None)
        if not isinstance(name, str) or Loader is not self._yaml.BaseLoader:
            return self._yaml.load(stream, Loader=Loader)
        st = os.fstat(stream.fileno())
        key = (os.path.realpath(name), st.st_size, st.st_mtime_ns)
        if key not in self._parsed:
            self._parsed[key] = self._yaml.load(stream, Loader=Loader)
        return _copied(self._parsed[key])

    def __getattr__(self, name):
        return getattr(self._yaml, name)


def _copied(value):
    """A fresh copy of parsed YAML (the base loader gives only dicts, lists and strings)."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


@lru_cache(maxsize=8192)
def _compiled(source: str, mode: str):
    return compile(source, "<string>", mode, dont_inherit=True)


def compiled_eval(source, globals=None, locals=None):  # noqa: A002 - the built-in's signature
    if isinstance(source, str):
        source = _compiled(source.lstrip(" \t"), "eval")
    return builtins.eval(source, globals, locals)


def compiled_exec(source, globals=None, locals=None):  # noqa: A002 - the built-in's signature
    if isinstance(source, str):
        source = _compiled(source, "exec")
    return builtins.exec(source, globals, locals)
