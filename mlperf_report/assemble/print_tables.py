"""Tables for print: a long unbroken word in a cell (a framework given as a 40-digit commit hash) may
wrap, so the table keeps to the page's width; a short Chinese word ("已計分", "加速器") may not, so a
narrow column does not print it one character a line.

WeasyPrint sizes an auto-layout table by its cells' longest unbreakable words; one such word pushed
the results table of MLPerf Training v4.1's BERT past the right edge of the page, cutting off its
time-to-train, runs and status columns. ``overflow-wrap: anywhere`` would let every word break but
doubles WeasyPrint's table layout time, so only words longer than :data:`LONG_WORD` get break
opportunities (a zero-width space every :data:`CHUNK` characters; identifiers of
:data:`UNDERSCORED_WORD` or more after each underscore), and only inside tables.

A word longer than :data:`MAX_BROKEN_WORD` is left whole: WeasyPrint lays out the rest of a cell's
text again at every break opportunity when it measures the cell, so a 100 KB submitter name cut into
8,000 pieces kept a build busy for over 15 minutes (no real name or framework comes near the limit).
"""

from __future__ import annotations

import re

#: Words at least this long get break opportunities; shorter ones (system names, "24.09") never split.
LONG_WORD = 24
#: Characters between two break opportunities in a long word.
CHUNK = 12
#: Longer words are hostile input, not names: left as they are (see above).
MAX_BROKEN_WORD = 240
BREAK = "\u200b"

_TABLE = re.compile(r"<table\b.*?</table\s*>", re.IGNORECASE | re.DOTALL)
_TEXT = re.compile(r">([^<]+)<")
#: Words at least this long break after their underscores (identifiers: ``opt_base_learning_rate``).
UNDERSCORED_WORD = 16
_WORD = re.compile(r"[^\s&;]{%d,}" % LONG_WORD + r"|[^\s&;]*_[^\s&;]*")  # never inside an entity such as &amp;
_AFTER_UNDERSCORE = re.compile(r"(?<=_)(?=[^_])")
#: A Chinese word kept on one line: a run of 2 to :data:`SHORT_CJK` CJK characters (ideographs, CJK
#: and full-width punctuation) between non-CJK text. Chinese may break between any two characters,
#: and WeasyPrint ignores ``word-break: keep-all``, so an auto-layout table gave a status column the
#: width of one character. Longer runs (a heading such as "執行次數（收斂／找到／要求）") may break.
SHORT_CJK = 6
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_SHORT_CJK_WORD = re.compile(r"(?<![%s])[%s]{2,%d}(?![%s])" % (_CJK, _CJK, SHORT_CJK, _CJK))


def _chunked(word: re.Match) -> str:
    """A long word's break opportunities: after each underscore of an identifier (a checker's
    parameter name such as ``opt_base_learning_rate`` as a status, 22 characters, pushed Training
    v1.0's Mask R-CNN table 3 mm into the margin), and every :data:`CHUNK` characters of a part of
    :data:`LONG_WORD` or more."""
    text = word.group(0)
    if len(text) > MAX_BROKEN_WORD or len(text) < UNDERSCORED_WORD:
        return text
    parts = _AFTER_UNDERSCORE.split(text)
    if len(text) < LONG_WORD:
        return BREAK.join(parts)
    return BREAK.join(piece for part in parts for piece in _pieces(part))


def _pieces(part: str) -> list[str]:
    """A part of a long word in :data:`CHUNK`-character pieces; one piece and its underscore kept whole."""
    if len(part) <= CHUNK + 1 and part.endswith("_"):
        return [part]
    return [part[i:i + CHUNK] for i in range(0, len(part), CHUNK)]


def breakable_words(html: str) -> str:
    """``html`` with a break opportunity every few characters of each long word in a table's text."""
    def in_table(table: re.Match) -> str:
        return _TEXT.sub(lambda text: ">" + _printed_text(text.group(1)) + "<", table.group(0))

    return _TABLE.sub(in_table, html)


def _printed_text(text: str) -> str:
    text = _WORD.sub(_chunked, text)
    return _SHORT_CJK_WORD.sub(lambda word: f'<span class="nobr">{word.group(0)}</span>', text)
