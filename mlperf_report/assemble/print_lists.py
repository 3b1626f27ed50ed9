"""Long lists of the narrative, cut for paper: the HTML report keeps every entry, the PDF the first
``PRINT_ITEMS`` of each list marked ``print-capped`` and a line saying how many more the HTML has.

Dell's Inference v4.1 report listed 40 like-for-like claims under "More from the results" and their
40 notes: six pages of a 33-page PDF. A note that only cut entries cite is cut with them; one that a
printed line also cites stays. Its number stays too, so the printed markers still match the notes.
(``print.css``: ``.print-cut`` is not printed, ``.print-only`` only printed.)
"""

from __future__ import annotations

import re

from mlperf_report.assemble.sections import Section
from mlperf_report.i18n.labels import label

#: Entries of a capped list a printed report keeps.
PRINT_ITEMS = 6

_LIST = re.compile(r'(<ul class="[^"]*\bprint-capped\b[^"]*">)(.*?)(</ul>)', re.DOTALL)
_ITEM = re.compile(r"<li>(.*?)</li>", re.DOTALL)
_MARKER = re.compile(r'href="#([^"]*-note-\d+)"')


def cut_long_lists(sections: list[Section], lang: str) -> list[Section]:
    """``sections`` with every capped list's entries past ``PRINT_ITEMS`` marked for the screen only,
    and the notes cited by nothing else printed marked so too."""
    cut_notes: set[str] = set()
    capped = [Section(s.id, s.title, _capped(s.html, lang, cut_notes), s.kind) for s in sections]
    if not cut_notes:
        return sections
    printed = set()
    for section in capped:
        visible = re.sub(r'<li class="print-cut">.*?</li>', "", section.html, flags=re.DOTALL)
        printed.update(_MARKER.findall(visible))
    hidden = cut_notes - printed
    return [Section(s.id, s.title, _hide_notes(s.html, hidden), s.kind) for s in capped]


def _capped(html: str, lang: str, cut_notes: set[str]) -> str:
    def cap(match: re.Match) -> str:
        items = _ITEM.findall(match.group(2))
        if len(items) <= PRINT_ITEMS:
            return match.group(0)
        for item in items[PRINT_ITEMS:]:
            cut_notes.update(_MARKER.findall(item))
        body = "".join(f"<li>{item}</li>" for item in items[:PRINT_ITEMS])
        body += "".join(f'<li class="print-cut">{item}</li>' for item in items[PRINT_ITEMS:])
        more = label("narrative.print_more", lang, count=len(items) - PRINT_ITEMS)
        return f'{match.group(1)}{body}<li class="print-only">{more}</li>{match.group(3)}'

    return _LIST.sub(cap, html)


def _hide_notes(html: str, hidden: set[str]) -> str:
    if not hidden:
        return html
    return re.sub(r'<p class="mlperf-note" id="([^"]+)"',
                  lambda m: f'<p class="mlperf-note print-cut" id="{m.group(1)}"' if m.group(1) in hidden else m.group(0),
                  html)
