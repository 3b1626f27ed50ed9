"""Jinja environments whose compiled templates are kept on disk, as Python keeps bytecode.

Compiling the two narrative templates took 0.17 s of every build, in the part of it where one core
waits (between the last notebook and the first report). Compiled templates are kept under
``.cache/jinja/``; ``make venv`` compiles them (``assemble.compile_templates``), as it compiles the
package's bytecode. Jinja checks each entry against the template's source, so an edited template is
compiled again; the folder is named after the environment's options and Jinja's version, which the
compiled code depends on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from mlperf_report.core import paths


def environment(folder: Path, **options):
    """A ``jinja2.Environment`` loading templates from ``folder``, with ``options``, whose compiled
    templates are kept under ``.cache/jinja/``."""
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)),
                              bytecode_cache=jinja2.FileSystemBytecodeCache(str(_cache_folder(folder, options))),
                              **options)


def _cache_folder(folder: Path, options: dict) -> Path:
    import jinja2

    settings = [(key, _stable(value)) for key, value in sorted(options.items())]
    described = repr([str(folder), jinja2.__version__, *settings])
    cache = paths.CACHE / "jinja" / hashlib.sha256(described.encode()).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    return cache


def _stable(value) -> object:
    """An option as the same text in every process: a function by its code and what it closes over
    (``select_autoescape``'s extensions), not by its address."""
    code = getattr(value, "__code__", None)
    if code is not None:
        closed = tuple(_stable(cell.cell_contents) for cell in value.__closure__ or ())
        return (value.__qualname__, code.co_code, code.co_consts, closed)
    return repr(value)


def compile_all(environments) -> int:
    """Compile every top-level template of ``environments`` into the cache; how many were compiled."""
    count = 0
    for env in environments:
        for name in env.list_templates(filter_func=lambda name: name.endswith(".j2") and "/" not in name):
            env.get_template(name)
            count += 1
    return count
