#!/usr/bin/env python3
"""The one entry point: `python build.py --help`. All logic lives in the mlperf_report package."""

from mlperf_report.core import processes

processes.skip_teardown_at_exit()  # before anything else registers an exit handler

from mlperf_report.cli.main import main  # noqa: E402

if __name__ == "__main__":
    processes.exit_without_teardown(main())
