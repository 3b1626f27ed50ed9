#!/usr/bin/env python3
"""The long fuzz run (``make fuzz``; not part of ``make test``): the hypothesis properties of
tests/test_properties.py with the ``fuzz`` profile, over 100,000 inputs or more in all.

Prints the inputs tried per property, the crashes (failing properties), the time and the machine:
the figures recorded in docs/FUZZING.md. Exit status 1 when any property found a failing input
(hypothesis prints it, shrunk, with a blob to reproduce it).

    .venv/bin/python bench/fuzz.py [--examples 40000]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=40_000,
                        help="examples for a full-weight property (the total is about 3.4x this)")
    args = parser.parse_args()
    os.environ["HYPOTHESIS_PROFILE"] = "fuzz"
    os.environ["FUZZ_EXAMPLES"] = str(args.examples)
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    import pytest

    started = time.perf_counter()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-W", "ignore::UserWarning",
                        str(ROOT / "tests" / "test_properties.py")])
    seconds = time.perf_counter() - started
    import test_properties

    tried = test_properties.TRIED
    print()
    print(f"inputs tried: {sum(tried.values()):,} ({', '.join(f'{k} {v:,}' for k, v in sorted(tried.items()))})")
    print(f"crashes: {0 if code == 0 else 'see the failures above'}")
    print(f"time: {seconds:.0f} s")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
