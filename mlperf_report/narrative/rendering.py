"""Suite-free narrative rendering: the mark and legend MLCommons requires, figures files read back,
Jinja templates rendered per language with footnotes numbered in reading order, and HTML made plain
text for an email (so the email can never say something the report does not).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.i18n import catalogue

FORMATS = ("html", "text")


#: The mark as the guidelines require it next to every use of the name (never translated).
MARK = "MLPerf®"


#: The attribution legend, verbatim from MLCommons' Results Messaging Guidelines ("Attribution").
TRADEMARK_LEGEND = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons Association in "
    "the United States and other countries. All rights reserved. Unauthorized use strictly prohibited. "
    "See www.mlcommons.org for more information."
)


@dataclass(frozen=True)
class Rendered:
    """The narrative and its notes, rendered from one context so footnote numbers agree."""

    narrative: str
    notes: str


def load_figures(figures_dir: Path | str, names: set[str] | None = None) -> tuple[dict[str, dict], dict | None]:
    """Read ``<benchmark>.json`` files (and ``summary.json``) of one round's figures folder; ``names``:
    only those stems (the build's own notebooks), so files left by an earlier build with another focus
    or benchmark list never reach the narrative."""
    folder = Path(figures_dir)
    if not folder.is_dir():
        raise InputError(f"{folder}: figures folder not found; run `python build.py report` to make it")
    figures, summary = {}, None
    for path in sorted(folder.glob("*.json")):
        if names is not None and path.stem not in names:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise InputError(f"{path}: not valid JSON ({error}); re-run the notebooks to rewrite it") from None
        if path.stem == "summary":
            summary = data
        elif isinstance(data, dict):
            figures[str(data.get("benchmark") or path.stem)] = data
    if not figures and summary is None:
        raise InputError(f"{folder}: no <benchmark>.json files; run the notebooks first")
    return figures, summary


def check_choice(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise ValueError(f"{what} must be one of {list(allowed)}, but {value!r} was passed")


def in_reading_order(context: dict, part: str, template: str) -> dict:
    """The context with footnotes renumbered in the order a reader meets their markers in ``part``.

    Claims are built section by section, but a template may mention a later claim first (the lead
    paragraph does); numbering by a first rendering keeps markers ascending through the text.
    """
    html = render_template(template, context, context["lang"], "html", part)
    seen = re.findall(rf'href="#{re.escape(context["note_prefix"])}(\d+)"', html)
    order = list(dict.fromkeys(int(n) for n in seen))
    order += [n["number"] for n in context["notes"] if n["number"] not in order]
    new_number = {old: new for new, old in enumerate(order, start=1)}

    def renumber(value):
        if isinstance(value, dict):
            return {k: (new_number[v] if k in ("note", "number") and isinstance(v, int) and v in new_number
                        else renumber(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [renumber(v) for v in value]
        return value

    renumbered = renumber(context)
    renumbered["notes"] = sorted(renumbered["notes"], key=lambda n: n["number"])
    return renumbered


@functools.lru_cache(maxsize=None)
def environment():
    import jinja2

    from mlperf_report.core import jinja_env

    return jinja_env.environment(paths.TEMPLATES, autoescape=_html_template, undefined=jinja2.StrictUndefined,
                                 trim_blocks=True, lstrip_blocks=True)


def _html_template(name: str | None) -> bool:
    return bool(name) and name.endswith(".html.j2")


def render_template(template: str, context: dict, lang: str, fmt: str, part: str) -> str:
    """``part`` of a Jinja template under ``templates/`` with the catalogue's ``msg``, as HTML or plain text."""
    def msg(key: str, **fields) -> str:  # the catalogue's short phrases, shared with charts and tables
        return catalogue.message(key, lang, **fields)

    html = environment().get_template(template).render(**context, part=part, msg=msg).strip() + "\n"
    if lang == "zh-Hant":
        html = tidy_cjk(html)
    return to_text(html) if fmt == "text" else html


_CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"


_CJK_IDEO = "\u3400-\u4dbf\u4e00-\u9fff"


_CJK_SPACE = re.compile(rf"(?<=[{_CJK_PUNCT}])\s+|\s+(?=[{_CJK_PUNCT}])|(?<=[{_CJK_IDEO}])\s+(?=[{_CJK_IDEO}])")


def tidy_cjk(text: str) -> str:
    """Drop the spaces template line breaks leave between Chinese characters and around full-width
    punctuation (a browser shows them as gaps); spaces between Chinese and Latin text stay."""
    return _CJK_SPACE.sub("", text)


def to_text(html: str) -> str:
    """Plain text of a rendered fragment: footnote markers as ``[n]``, one blank line between blocks.

    Plain text is made from the HTML rather than from templates of its own, so the words of a
    language live in one file and the email can never say something the report does not.
    """
    writer = TextWriter()
    writer.feed(html)
    writer.close()
    paragraphs = [" ".join(p.split()) for p in "".join(writer.out).split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p) + "\n"


class TextWriter(HTMLParser):
    _BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "div", "ol", "ul", "table", "caption"}
    _BRACKETED = ("mlperf-fn", "mlperf-note-number")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = (dict(attrs).get("class") or "").split()
        bracket = any(c in classes for c in self._BRACKETED)
        self._stack.append("]" if bracket else "")
        if bracket:
            self.out.append("[")
        elif tag in self._BLOCKS:
            self.out.append("\n\n")
        elif tag in ("td", "th"):
            self.out.append(" | ")
        elif tag == "br":
            self._stack.pop()
            self.out.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":
            return
        if self._stack:
            self.out.append(self._stack.pop())
        if tag in self._BLOCKS:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        self.out.append(data)


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n\n") if line.strip()]
