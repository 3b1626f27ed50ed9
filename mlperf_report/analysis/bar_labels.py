"""The words on a claim chart's bars: what a reader can name, never a model number alone.

A bar is labelled as the claim above it names the system: by its chips and their count, and who
built it ("8 × NVIDIA B200 · Supermicro"; the focus's own, or a maker's system on its own chips,
without the maker said again: "8 × AMD Instinct MI355X"). The system's printed name (or its folder
name) goes in the slide's speaker notes and the card's SVG description, beside the label. Two bars
that would read the same are told apart by their round, else by a short system name. The chip's
name comes from the catalogue (``names.chip``); every word from the gettext catalogue.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mlperf_report.analysis import names
from mlperf_report.analysis.label_text import columns, short_label
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import label

#: Columns a bar's label takes at most (the room the chart's left margin gives it).
COLUMNS = 50
#: Columns a short system name takes when it tells two bars apart, and the least it is cut to to
#: leave the chips whole; the least room a maker's name is shown in.
NAME_COLUMNS = 14
WHICH_FLOOR = 6
MAKER_FLOOR = 4


def chips(row: dict, lang: str) -> str:
    """What a result ran on, counted: ``8 × NVIDIA B200`` (``8 顆 NVIDIA B200``); its host processors
    where it has no accelerator; the chip alone where the count is unknown; "" where neither is known."""
    model, count = row.get("accelerator_model"), row.get("accelerators")
    if names.blank_model(model) or not count:
        model, count = row.get("host_processor_model"), row.get("host_processors")
    if names.blank_model(model):
        return ""
    chip = names.chip(model, load_generations())
    return label("kit.bar_chips", lang, n=formatting.count(count), chip=chip) if count else chip


def system_name(row: dict) -> str:
    """The system's name as its results print it (the official name, else its folder name)."""
    return str(row.get("system") or row.get("system_id") or "").strip()


def _short_name(row: dict) -> str:
    """The system's printed name without its maker's in front (the label says the maker), cut short."""
    name = names.system(row) or str(row.get("system_id") or system_name(row))
    maker = names.maker(row.get("submitter"))
    if maker and name.lower().startswith(maker.lower() + " "):
        name = name[len(maker):].strip()
    return short_label(name, NAME_COLUMNS)


def _maker(row: dict, chips_text: str, own: bool) -> str:
    """The bar's maker, or "" for the focus's own bar (``own``) or a maker the chip's name already says."""
    maker = names.maker(row.get("submitter"))
    if own or not maker or re.search(rf"(?<!\w){re.escape(maker)}(?!\w)", chips_text, re.IGNORECASE):
        return ""
    return maker


def _composed(chips_text: str, maker: str, which: str, lang: str, width: int) -> str:
    """The label in ``width`` columns: the chips and count first and whole (a cut chip name is no name),
    what tells it apart last (cut to the room the chips leave, never below :data:`WHICH_FLOOR`
    columns), the maker cut to the room between them or left out where none is left."""
    tail = lambda w: columns(label("kit.bar_which", lang, label="", which=w)) if w else 0  # noqa: E731
    between = columns(label("kit.bar_maker", lang, chips="", maker=""))
    which = short_label(which, NAME_COLUMNS) if which else ""
    over = tail(which) - (width - columns(chips_text))
    if which and over > 0:
        which = short_label(which, max(WHICH_FLOOR, columns(which) - over))
    text = chips_text if columns(chips_text) + tail(which) <= width else \
        short_label(chips_text, max(width - tail(which), 20))
    room = width - columns(text) - tail(which) - between
    if maker and room >= MAKER_FLOOR:
        text = label("kit.bar_maker", lang, chips=text, maker=short_label(maker, room))
    return label("kit.bar_which", lang, label=text, which=which) if which else text


def bar_label(row: dict, lang: str, *, own: bool = False, which: str = "", width: int = COLUMNS) -> str:
    """One bar's label: its chips and count, then its maker unless ``own`` (the focus's own bar when
    the focus is a submitter) or the chip's name already says it, then ``which`` (a round, a short
    system name) where given; a short system name where no chip is known."""
    text = chips(row, lang)
    if not text:
        return _composed(_short_name(row), "", which, lang, width)
    return _composed(text, _maker(row, text, own), which, lang, width)


def _round_of(row: dict) -> str:
    return str(row.get("round") or "").rsplit("-", 1)[-1]


def _labels(rows: list[dict], lang: str, own_unnamed: bool) -> list[str]:
    """Each bar's label, with its round in a chart over several rounds; where two would still read
    the same, with their makers, then a short system name, then the folder name, then a number."""
    rounds = [_round_of(r) for r in rows] if len({_round_of(r) for r in rows}) > 1 else [""] * len(rows)
    owns, whiches = [own_unnamed and r["mine"] for r in rows], list(rounds)

    def made() -> list[str]:
        return [bar_label(r, lang, own=o, which=w) for r, o, w in zip(rows, owns, whiches)]

    def shared(texts: list[str]) -> set[int]:
        return {i for i, t in enumerate(texts) if texts.count(t) > 1}

    same = shared(made())
    owns = [own and i not in same for i, own in enumerate(owns)]
    for tell in (_short_name, lambda r: str(r.get("system_id") or ""), lambda r: f"#{rows.index(r) + 1}"):
        same = shared(made())
        whiches = [" ".join(filter(None, (rounds[i], tell(r)))) if i in same else w
                   for i, (r, w) in enumerate(zip(rows, whiches))]
    return made()


def labelled(chart, lang: str, *, own_unnamed: bool = False):
    """``chart`` (``claim_charts.ClaimChart``) with each bar's ``label`` and ``system_name`` set
    (``own_unnamed``: the focus is a submitter, so its own bars do not name it again). A share
    chart's bars are labelled by what they count, a partners chart's by the partners' names, a
    debut's cells (each of its own benchmark) by their chips alone."""
    if chart is None:
        return None
    rows = [dict(r) for r in chart.rows]
    if chart.measure == "systems":
        texts = [label("kit.share_mine", lang, vendor=r["vendor"]) if r["mine"] else label("kit.share_other", lang)
                 for r in rows]
    elif chart.measure == "results":  # a partner by name; the rest counted
        texts = [names.maker(r["submitter"]) or r["submitter"] if not r.get("others") else
                 label("kit.partners_other", lang, n=formatting.count(r["others"])) for r in rows]
    elif chart.measure == "debut":  # each cell of its own benchmark: its chips and maker say all
        texts = [bar_label(r, lang, own=own_unnamed and r["mine"]) for r in rows]
    else:
        texts = _labels(rows, lang, own_unnamed)
    return replace(chart, rows=tuple({**r, "label": t, "system_name": system_name(r)} for r, t in zip(rows, texts)))


def notes_line(chart, lang: str) -> str:
    """The bars and the systems they stand for, for a slide's speaker notes and a card's description
    (``Bars: 8 × NVIDIA B200 · Supermicro: SMCI355X (AS -4126GS-NMR-LCC); …``); "" for a chart whose
    bars are no systems."""
    items = [label("kit.bar_system", lang, label=r["label"], system=r["system_name"])
             for r in (chart.rows if chart is not None else ()) if r.get("system_name")]
    return label("kit.bars", lang, items=label("kit.bars_joiner", lang).join(items)) if items else ""
