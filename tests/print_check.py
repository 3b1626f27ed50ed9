"""A printed PDF as a reader holds it, measured from its vector text (charts are vector graphics, so
their labels count): words that overlap other words, type under a size, words outside the page.

The same measure as ``../shared/tools/print_check.py`` (pdfplumber's words; two words overlap when
their boxes share more than a quarter of the smaller one's area and at least half its height; a
citation marker, a small raised number, may touch the word it cites; upright words only), so a
layout change that breaks print fails a test here and not only in a reader's hands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class PrintReport:
    pages: int = 0
    overlaps: list = field(default_factory=list)     # (page, word, word)
    small: list = field(default_factory=list)        # (page, word, size)
    outside: list = field(default_factory=list)      # (page, word)

    @property
    def clean(self) -> bool:
        return not (self.overlaps or self.small or self.outside)

    def __str__(self) -> str:
        return (f"{self.pages} pages, {len(self.overlaps)} overlapping pairs {self.overlaps[:3]}, "
                f"{len(self.small)} small words {self.small[:4]}, {len(self.outside)} outside {self.outside[:3]}")


def _overlap(a: dict, b: dict) -> float:
    ix = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
    iy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    if ix <= 0 or iy <= 0:
        return 0.0
    ha, hb = a["bottom"] - a["top"], b["bottom"] - b["top"]
    if iy < 0.5 * min(ha, hb):  # adjacent lines whose boxes touch
        return 0.0
    smaller = min((a["x1"] - a["x0"]) * ha, (b["x1"] - b["x0"]) * hb) or 1e-9
    return ix * iy / smaller


def _marker(m: dict, w: dict) -> bool:
    return re.fullmatch(r"\d{1,3}", m["text"].strip()) is not None and m["size"] < 0.85 * w["size"]


def check_pdf(path, min_pt: float = 6.0) -> PrintReport:
    """Every page of ``path`` measured."""
    import pdfplumber

    report = PrintReport()
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            report.pages += 1
            words = sorted((w for w in page.extract_words(extra_attrs=["size", "upright"]) if w["upright"]),
                           key=lambda w: w["top"])
            for i, a in enumerate(words):
                for b in words[i + 1:]:
                    if b["top"] > a["bottom"]:
                        break
                    if _overlap(a, b) > 0.25 and not _marker(a, b) and not _marker(b, a):
                        report.overlaps.append((number, a["text"], b["text"]))
            report.small += [(number, w["text"], round(w["size"], 2)) for w in words if w["size"] < min_pt - 0.05]
            report.outside += [(number, w["text"]) for w in words
                               if w["x0"] < -1 or w["top"] < -1 or w["x1"] > page.width + 1 or w["bottom"] > page.height + 1]
    return report
