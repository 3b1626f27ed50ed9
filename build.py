#!/usr/bin/env python3
"""The one entry point: `python build.py --help`. All logic lives in the mlperf_report package."""

import sys

from mlperf_report.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
