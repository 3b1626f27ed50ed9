"""Showing charts and tables in a notebook, once per language, tagged for the report assembler.

Each output carries ``{"mlperf_report": {"chart" | "table": name, "lang": lang}}`` in its output
metadata, so the assembler picks one language's outputs from the executed notebook without parsing
cell sources. Charts are SVG (deterministic, labels as text); tables are HTML.
"""

from __future__ import annotations

from typing import Callable, Iterable

from mlperf_report.analysis import style


def chart_svg(draw: Callable, *, lang: str, rows: int | None = None, height: float | None = None, **options) -> str:
    """Draw one chart (``draw(ax=..., lang=..., **options)``) in the house style and return its SVG;
    a chart drawn before from the same inputs is read back from the memo (``chart_memo``). A
    ``colours`` option (key -> colour) is drawn as placeholders and painted afterwards (``paint``),
    so the memo serves every focus whose chart differs only in colour."""
    from mlperf_report.analysis import chart_memo, marker_copies, measured_text, paint
    from mlperf_report.analysis.chart_text import chart_value

    options = {key: chart_value(value) for key, value in options.items()}  # submitters' text, drawable
    colours = options.get("colours")
    if colours is not None:  # keys name submitters and systems: drawable, as the frames' cells now are
        colours = {chart_value(key): colour for key, colour in colours.items()}
        neutral = paint.placeholders(colours)
        options["colours"] = neutral
    key = chart_memo.chart_key(draw, lang=lang, rows=rows, height=height, options=options)
    svg = chart_memo.recall(key)
    if svg is None:
        with style.house_style(lang), measured_text.remembered(), marker_copies.shallow(), \
                paint.drawing_with(neutral if colours is not None else {}):
            fig = style.figure(rows, height=height)
            draw(ax=fig.subplots(), lang=lang, **options)
            svg = style.to_svg(fig)
        chart_memo.keep(key, svg)
    return svg if colours is None else paint.repaint(svg, neutral, colours)


def show_chart(name: str, draw: Callable, *, languages: Iterable[str], rows: int | None = None,
               height: float | None = None, **options) -> dict[str, str]:
    """Display chart ``name`` in every language; returns the SVG text per language."""
    from IPython.display import display

    svgs = {}
    for lang in languages:
        drawn_in = style.chart_language(lang)
        svg = chart_svg(draw, lang=drawn_in, rows=rows, height=height, **options)
        svgs[lang] = svg
        meta = {"chart": name, "lang": lang}
        if drawn_in != lang:
            meta["label_lang"] = drawn_in
        display({"image/svg+xml": svg, "text/plain": f"<{name} chart, {lang}>"}, raw=True,
                metadata={"mlperf_report": meta})
    return svgs


def show_table(name: str, make: Callable, *, languages: Iterable[str], printed: bool = True, **options) -> None:
    """Display table ``name`` (``make(lang=..., **options)`` returns a DataFrame) in every language;
    a table with no rows is not shown (an empty exhibit tells the reader nothing). ``printed=False``:
    the HTML report shows it, the PDF leaves it out (a table that lists what the chart above it
    shows, where paper is short)."""
    from IPython.display import display

    from mlperf_report.analysis.html_tables import to_html

    for lang in languages:
        df = make(lang=lang, **options)
        if df.empty:
            continue
        meta = {"table": name, "lang": lang, **({} if printed else {"screen_only": True})}
        display({"text/html": to_html(df), "text/plain": df.to_string(index=False)}, raw=True,
                metadata={"mlperf_report": meta})


def show_text(name: str, make: Callable, *, languages: Iterable[str], **options) -> None:
    """Display one sentence ``name`` (``make(lang=..., **options)`` returns text, or "" for nothing)
    in every language, as a paragraph the assembler places like a table."""
    import html

    from IPython.display import display

    for lang in languages:
        text = make(lang=lang, **options)
        if text:
            display({"text/html": f'<p class="mlperf-remark">{html.escape(text)}</p>\n', "text/plain": text}, raw=True,
                    metadata={"mlperf_report": {"table": name, "lang": lang}})


def show_heading(name: str, make: Callable, *, languages: Iterable[str], **options) -> None:
    """Display a heading inside a section (``make(lang=..., **options)`` returns its text) in every
    language; the assembler moves it below the section's own title."""
    import html

    from IPython.display import display

    for lang in languages:
        text = make(lang=lang, **options)
        display({"text/html": f"<h3>{html.escape(text)}</h3>\n", "text/plain": text}, raw=True,
                metadata={"mlperf_report": {"table": name, "lang": lang}})
