"""Long narrative lists on paper: the first six entries and a line saying how many more the HTML has;
a note only the cut entries cite is cut with them, one a printed line cites too stays."""

from __future__ import annotations

from mlperf_report.assemble import print_lists
from mlperf_report.assemble.sections import Section


def marker(n: int) -> str:
    return f'<sup class="mlperf-fn"><a href="#mlperf-en-note-{n}">{n}</a></sup>'


def narrative(items: int, cls: str = "print-capped") -> Section:
    body = "".join(f"<li>claim {i}{marker(i)}</li>" for i in range(1, items + 1))
    return Section("sec-highlights", "Highlights", f'<p>lead{marker(9)}</p><ul class="{cls}">{body}</ul>', "narrative")


def notes(count: int) -> Section:
    html = "".join(f'<p class="mlperf-note" id="mlperf-en-note-{n}">note {n}</p>' for n in range(1, count + 1))
    return Section("sec-notes", "Notes", html, "notes")


def test_a_long_list_keeps_six_entries_on_paper_and_says_how_many_more():
    printed, _ = print_lists.cut_long_lists([narrative(10), notes(10)], "en")
    html = printed.html
    assert html.count('<li class="print-cut">') == 4 and html.count("<li>claim") == 6
    assert '<li class="print-only">and 4 more, listed in the HTML report</li>' in html
    assert html.index("claim 6") < html.index('class="print-cut"') < html.index("claim 7")


def test_a_note_only_cut_entries_cite_is_cut_and_one_printed_elsewhere_stays():
    printed = print_lists.cut_long_lists([narrative(10), notes(10)], "en")
    cut = {n for n in range(1, 11) if f'class="mlperf-note print-cut" id="mlperf-en-note-{n}"' in printed[1].html}
    assert cut == {7, 8, 10}  # note 9 is the lead's too: still printed


def test_short_lists_and_unmarked_lists_are_left_alone():
    for section in (narrative(6), narrative(12, cls="mlperf-story")):
        assert print_lists.cut_long_lists([section, notes(12)], "en")[0].html == section.html


def test_the_line_is_in_the_report_s_language():
    printed, _ = print_lists.cut_long_lists([narrative(8), notes(8)], "zh-Hant")
    assert "另有 2 項" in printed.html
