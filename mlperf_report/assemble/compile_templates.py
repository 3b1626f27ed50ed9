"""``make venv``: every template of the project's Jinja environments compiled into ``.cache/jinja/``
(see ``core.jinja_env``), as ``compileall`` compiles the package's bytecode."""

from __future__ import annotations


def main() -> int:
    from mlperf_report.assemble import page
    from mlperf_report.core import jinja_env, paths
    from mlperf_report.narrative import rendering

    count = jinja_env.compile_all([rendering.environment(), page._jinja()])
    print(f"jinja: {count} templates compiled into {paths.CACHE / 'jinja'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
