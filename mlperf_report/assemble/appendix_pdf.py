"""The report's appendix (the closing exhibits) printed as a document of its own, beside the report.

The exhibits list every result of every benchmark: a third of a Training v4.1 report's pages (18 of
46), which executives never read, and the same in every focus's report. The main PDF ends with the
notes; its contents entry of the exhibits links to ``exhibits.<lang>.pdf`` in the same folder,
numbered A-1, A-2, … (``print.css``'s named page ``appendix``), which a batch prints once for all its
focuses (the assembly cache keeps it by content). The HTML report keeps the exhibits inline.
"""

from __future__ import annotations

#: What an appendix page number starts with ("A-3"), as printed.
PAGE_PREFIX = "A-"


def file_name(lang: str) -> str:
    """The exhibits' PDF beside the report, as its format names it (asked by name: a build that does not
    choose the exhibits does not depend on their module)."""
    from mlperf_report.assemble import formats

    return formats.get("exhibits").file_name(lang)
