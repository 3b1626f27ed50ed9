"""Long words in a table may wrap in print, so a table keeps to the page (a framework given as a commit
hash pushed Training v4.1's BERT results past the page edge, cutting off its times)."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from mlperf_report.assemble import print_tables
from mlperf_report.assemble.print_tables import BREAK, CHUNK, LONG_WORD, MAX_BROKEN_WORD

HASH = "b5546912e24e0a864b35924da4efa5d71cfe368b"


def test_a_long_word_in_a_cell_gets_break_opportunities_and_nothing_else_changes():
    html = (f'<p>{HASH} outside a table</p><table class="x"><tr><td title="{HASH}">tinygrad, commit {HASH}</td>'
            '<td>PyTorch NVIDIA Release 24.09</td><td>Tom &amp; Jerry</td></tr></table>')
    printed = print_tables.breakable_words(html)
    assert printed.startswith(f"<p>{HASH} outside a table</p>")  # only tables
    assert f'title="{HASH}"' in printed  # attributes untouched
    cell = re.search(r"tinygrad, commit ([^<]+)</td>", printed).group(1)
    assert cell.replace(BREAK, "") == HASH and all(len(part) <= CHUNK for part in cell.split(BREAK))
    assert "<td>PyTorch NVIDIA Release 24.09</td><td>Tom &amp; Jerry</td>" in printed


def test_a_hostile_word_is_left_whole():
    """A 100 KB name in 8,000 breakable pieces kept WeasyPrint measuring the cell for over 15 minutes."""
    html = f"<table><tr><td>{'L' * (MAX_BROKEN_WORD + 1)}</td><td>{'L' * MAX_BROKEN_WORD}</td></tr></table>"
    printed = print_tables.breakable_words(html)
    assert printed.count(BREAK) == -(-MAX_BROKEN_WORD // CHUNK) - 1  # only the second word is cut


@given(st.text(alphabet="abcdef0123456789 -_./", max_size=MAX_BROKEN_WORD))
def test_the_text_reads_the_same_without_the_breaks(text):
    html = f"<table><tr><td>{text}</td></tr></table>"
    printed = print_tables.breakable_words(html)
    assert printed.replace(BREAK, "") == html
    cell = re.search(r"<td>(.*)</td>", printed, re.S).group(1)
    assert all(len(run) < LONG_WORD for word in cell.split() for run in word.split(BREAK))  # nothing unbreakable


def test_a_short_chinese_word_in_a_table_stays_on_one_line_and_a_long_one_may_break():
    """WeasyPrint ignores ``word-break: keep-all``: a status column printed "已計分" one character a line."""
    html = ("<p>已計分</p><table><thead><tr><th>加速器</th><th>執行次數（收斂／找到／要求）</th></tr></thead>"
            "<tr><td>已計分</td><td>Dell 封閉 2 個</td><td>不完整：找到 1／10 次</td></tr></table>")
    printed = print_tables.breakable_words(html)
    assert printed.startswith("<p>已計分</p>")  # only tables
    nobr = re.findall(r'<span class="nobr">([^<]*)</span>', printed)
    assert nobr == ["加速器", "已計分", "封閉", "不完整：找到"]  # six characters at most
    assert "執行次數（收斂／找到／要求）" in printed  # 14 characters: may break
    assert re.sub(r'</?span[^>]*>', "", printed) == html


@given(st.text(alphabet="已計分封閉加速器（）／： abc12", max_size=60))
def test_the_cjk_text_reads_the_same_without_the_spans(text):
    html = f"<table><tr><td>{text}</td></tr></table>"
    printed = print_tables.breakable_words(html)
    assert re.sub(r'</?span[^>]*>', "", printed).replace(BREAK, "") == html


def test_an_identifier_breaks_after_its_underscores():
    """A checker's parameter name as a status (22 characters, under the long-word length) pushed
    Training v1.0's Mask R-CNN results 3 mm into the page's margin; a long one breaks at its parts."""
    html = "<table><tr><td>opt_base_learning_rate</td><td>CloudBrainII_Enhanced_Prototype_256</td><td>tpu-v4_128</td></tr></table>"
    printed = print_tables.breakable_words(html)
    assert f"opt_{BREAK}base_{BREAK}learning_{BREAK}rate" in printed
    assert f"CloudBrainII_{BREAK}Enhanced_{BREAK}Prototype_{BREAK}256" in printed
    assert "<td>tpu-v4_128</td>" in printed  # short: whole
