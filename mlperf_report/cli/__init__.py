"""cli: build.py's subcommands, one module each, wired by ``main``.

Concern: argument parsing and the order of stages (``ingest``, ``report``, ``send``, ``all``); no logic
of its own beyond planning a build.
May import: every other subpackage.
Public: ``main.main``.
"""
