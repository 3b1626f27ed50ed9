"""The story's words that are not sentences: numbers as a sentence writes them (minutes, values in
their unit, ratios, gaps, factors, money), lists, counts, and how a system is named.

A system is named as a team would publish it: its own printed name ("the DGX B200"), or, for a
system it is compared with (and one of its own with no printable name), by who built it and on what
("a Supermicro system with 8 NVIDIA B200"); the folder spelling stays in the citation
(``analysis.names``). ``story_text`` builds the sentences from these.
"""

from __future__ import annotations

from mlperf_report.analysis import names
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import counted, label

#: A latency's table unit -> the unit after a number in a sentence.
_UNITS = {"Latency (ms)": "ms", "Latency (s)": "s", "Watts": "W", "millijoules": "mJ"}
#: At most this many names in a list; the rest are counted ("… and 4 more").
LIST_ITEMS = 6
#: From this gap on, a lead reads as a factor of the two results ("by a factor of 2.1"), not as a
#: percentage: "198,209 % ahead" is true and unreadable.
FACTOR_FROM = 1.0


def joined(items: list[str], lang: str) -> str:
    if not items:
        return ""
    shown, more = (items, 0) if len(items) <= LIST_ITEMS + 1 else (items[:LIST_ITEMS], len(items) - LIST_ITEMS)
    # "and 1 more" hides a name to save none: the seventh is shown
    if lang.startswith("zh"):
        text = "、".join(shown)
    else:
        text = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + (" and " if more <= 0 else ", ") + shown[-1]
    return label("story.list_more", lang, items=text, more=more) if more > 0 else text


def value_text(row: dict, lang: str) -> str:
    """A result's primary value as a sentence writes it: ``20.8 minutes``, ``556,234 Samples/s``, ``0.212 ms``."""
    number, unit = value_parts(row, lang)
    return label("story.minutes", lang, value=number) if row["unit"] == "minutes" else f"{number} {unit}"


def value_parts(row: dict, lang: str) -> tuple[str, str]:
    """``value_text``'s number and unit apart (``20.8``, ``minutes``): a chart prints the number large."""
    if row["unit"] == "minutes":
        return formatting.minutes(row["value"]), label("kit.figure_minutes", lang)
    return formatting.measured(row["value"], 1 if row["higher_is_better"] else 3, lang), _UNITS.get(row["unit"], row["unit"])


def energy_text(row: dict, lang: str) -> str:
    """An energy or power result: megajoules to train, watts, or millijoules per query."""
    if row["energy_unit"] == "J":
        return f"{formatting.fixed(row['energy'] / 1e6, formatting.places_for([row['energy'] / 1e6], 1), lang)} MJ"
    value = formatting.measured(row["energy"], 1, lang)
    return f"{value} {_UNITS.get(row['energy_unit'], row['energy_unit'])}"


def ratio_text(value: float) -> str:
    """``1.55`` -> ``1.6×`` as the house writes ratios; under 1.1× two decimals (``1.08×``: one decimal
    would round a real 8 % gain to 1.1×); a whole multiple as ``6×``."""
    if abs(value - round(value)) < 1e-9 and value >= 2:
        return formatting.ratio(value, places=0)
    return formatting.ratio(value, places=2 if value < 1.1 else 1)


def plain_ratio(value: float) -> str:
    """A ratio's number alone, as ``ratio_text`` rounds it (``4.9`` of ``4.9×``), for a computation."""
    return ratio_text(value).rstrip("×")


def gap_text(value: float) -> str:
    """A relative gap as a percentage: one decimal under 10 %."""
    return formatting.percent(abs(value), places=1 if abs(value) < 0.1 else 0)


def factor_text(gap: float) -> str:
    """A lead as the factor between the two results: 1.1 -> ``2.1``, 1982.09 -> ``1,983``."""
    value = 1 + abs(gap)
    return formatting.fixed(value, 1 if value < 10 else 0)


def lead(key: str, gap: float) -> tuple[str, dict]:
    """The message and its field for a lead of ``gap``: ``key`` with ``gap`` as a percentage, or, from
    :data:`FACTOR_FROM` on, ``key``'s ``_factor`` sentence with the factor."""
    if abs(gap) >= FACTOR_FROM:
        return f"{key}_factor", {"factor": factor_text(gap)}
    return key, {"gap": gap_text(gap)}


def accelerators_text(count: int | None, lang: str, unit: str = "accelerator") -> str:
    """``1 accelerator``, ``3,072 accelerators``, ``2 processors`` (each language's plural form)."""
    key = "story.with_processors" if unit == "processor" else "story.with_accelerators"
    return counted(key, lang, int(count), n=formatting.count(count)) if count else ""


def money_text(price: dict, lang: str) -> str:
    return formatting.money(price["amount"], price["currency"], lang)


def entered_text(count: int, pairs: bool, lang: str) -> str:
    """What a leadership count counts: ``7 benchmarks`` (Training), ``15 benchmark-scenario pairs``
    (Inference, where each benchmark is run in several scenarios)."""
    return counted("story.count.pairs" if pairs else "story.count.benchmarks", lang, count)


# --- names ---------------------------------------------------------------------------------------

def chip_text(model: object) -> str:
    """A chip by its product name (``NVIDIA B200``)."""
    return names.chip(model, load_generations())


def after_owner(chip: str, owner: str) -> str:
    """A chip after its owner's name, without saying the vendor twice ("Google's TPU Trillium", not
    "Google's Google TPU Trillium")."""
    return chip[len(owner):].strip() if owner and chip.lower().startswith(owner.lower() + " ") else chip


def chips_of(row: dict) -> tuple[str, int | None, str]:
    """What a result ran on: (chip name, count, ``accelerator`` or ``processor``)."""
    if not names.blank_model(row.get("accelerator_model")) and row.get("accelerators"):
        return chip_text(row["accelerator_model"]), row["accelerators"], "accelerator"
    return chip_text(row.get("host_processor_model") or ""), row.get("host_processors"), "processor"


def _with_chips(row: dict, lang: str) -> str:
    chip, count, _ = chips_of(row)
    chip = after_owner(chip, names.maker(row.get("submitter")))
    return label("story.chips", lang, n=formatting.count(count), chip=chip) if count else chip


def rival_text(row: dict, lang: str) -> str:
    """A compared system: who built it and on what (``a Supermicro system with 8 NVIDIA B200``)."""
    maker = names.maker(row.get("submitter"))
    key = "story.rival_an" if lang == "en" and names.uses_an(maker) else "story.rival"
    return label(key, lang, maker=maker, chips=_with_chips(row, lang))


def own_system_text(row: dict, lang: str, availability: str = "") -> str:
    """The focus's own system: ``the`` its printed name, else its maker's system with its chips; a
    system not yet available says so (MLCommons' category)."""
    name = names.system(row)
    text = (label("story.the_system", lang, name=name) if name else
            label("story.own_system", lang, maker=names.maker(row.get("submitter")), chips=_with_chips(row, lang)))
    return label("story.not_available", lang, system=text, availability=availability) if availability else text


def named_of_text(row: dict, lang: str, availability: str = "") -> str:
    """A round's best result in a neutral overview: ``the DGX B200 of NVIDIA``, else its description."""
    name = names.system(row)
    text = (label("story.named_of", lang, name=name, maker=names.maker(row.get("submitter"))) if name
            else rival_text(row, lang))
    return label("story.not_available", lang, system=text, availability=availability) if availability else text
