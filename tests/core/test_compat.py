"""Each reach into a library's private names is gated on the versions it was checked with, and its
public path gives the same result: the zip's member count (no private path left), the catalogue's
plural rule (no private path left), the deck's East Asian typefaces, the summarizer's energy
arithmetic, a pool stopped now, the CJK font made the only one of its family."""

from __future__ import annotations

import gettext
import io
import zipfile
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlperf_report.core import compat
from mlperf_report.core.sources import zip_entries


def test_a_version_is_within_its_checked_range_by_release_numbers():
    assert compat.within("1.0.2", ("1.0.0", "1.0.2")) and compat.within("1.0.10", ("1.0.0", "1.0.10"))
    assert not compat.within("1.1.0", ("1.0.0", "1.0.2")) and not compat.within("", ("1.0.0", "1.0.2"))
    assert not compat.within("0.6.23", ("1.0.0", "1.0.2"))
    assert compat.release("4.1.0rc1") == (4, 1, 0) and compat.release("2.1.0+cpu") == (2, 1, 0)
    assert all(compat.private_ok(name) for name in compat.CHECKED)  # this environment is a checked one


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 300), st.binary(max_size=300))
def test_the_zip_member_count_is_read_from_the_archive_s_own_record(members, comment):
    # a comment holding the end record's own signature makes an archive the standard library cannot
    # open either (BadZipFile), which is what ingest then reports
    assume(b"PK\x05\x06" not in comment)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(members):
            archive.writestr(f"f{i}.txt", b"x" * (i % 7))
        archive.comment = comment
    assert zip_entries(io.BytesIO(buffer.getvalue())) == members == len(zipfile.ZipFile(buffer).infolist())
    assert zip_entries(io.BytesIO(b"not a zip" * 10)) is None


@pytest.mark.parametrize("locale", ["zh_Hant", "ru", "pl", "ar", "fr", "cs", "ga", "ja"])
def test_the_plural_rule_is_the_standard_library_s_reading_of_the_header(locale):
    from babel.messages.catalog import Catalog

    from mlperf_report.i18n.catalogue import plural_rule

    catalog = Catalog(locale=locale)
    rule = plural_rule(catalog)
    reference = gettext.c2py(catalog.plural_expr) if hasattr(gettext, "c2py") else None
    forms = {rule(n) for n in range(0, 1200)}
    assert forms <= set(range(catalog.num_plurals))
    if reference is not None:
        assert [rule(n) for n in range(0, 1200)] == [reference(n) for n in range(0, 1200)]


def _deck(private: bool, east_asian: str | None = None) -> bytes:
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.util import Inches, Pt

    from mlperf_report.assemble.formats import slides

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for i, (text, face) in enumerate((("第一名", "Noto Sans CJK TC"), ("Fastest", "DejaVu Sans"))):
        run = slide.shapes.add_textbox(Inches(1), Inches(1 + i), Inches(4), Inches(1)).text_frame.paragraphs[0].add_run()
        run.text = text
        run.font.size, run.font.name = Pt(20), face
        run.font.color.rgb = RGBColor.from_string("1F2933")
        if private:
            slides._east_asian(run, face, east_asian)
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue() if private else compat.pptx_east_asian(buffer.getvalue(), east_asian)


def test_the_deck_names_its_east_asian_typefaces_the_same_by_the_public_path():
    private, public = (zipfile.ZipFile(io.BytesIO(_deck(p))) for p in (True, False))
    assert private.namelist() == public.namelist()
    for name in private.namelist():
        assert private.read(name) == public.read(name), name
    slide = public.read("ppt/slides/slide1.xml").decode()
    assert '<a:latin typeface="Noto Sans CJK TC"/><a:ea typeface="Noto Sans CJK TC"/>' in slide
    assert compat.pptx_east_asian(_deck(False)) == _deck(False)  # given once: nothing to add again


def test_a_brand_s_deck_names_the_cjk_face_as_east_asian_the_same_by_the_public_path():
    private, public = (zipfile.ZipFile(io.BytesIO(_deck(p, "Noto Sans CJK TC"))) for p in (True, False))
    for name in private.namelist():
        assert private.read(name) == public.read(name), name
    slide = public.read("ppt/slides/slide1.xml").decode()
    assert '<a:latin typeface="DejaVu Sans"/><a:ea typeface="Noto Sans CJK TC"/><a:cs typeface="DejaVu Sans"/>' in slide


@dataclass
class Line:
    key: str
    value: dict
    timestamp: float


_READINGS = st.lists(st.tuples(st.integers(1, 10_000), st.floats(0, 5_000)), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(_READINGS, st.booleans(), st.floats(0.5, 1.0), st.floats(1_000, 10_000_000))
def test_the_transcribed_energy_arithmetic_is_the_summarizer_s(readings, stop, efficiency, time_to_train):
    from mlperf_logging.result_summarizer import result_summarizer as summarizer

    from mlperf_report.suites.training import power_arith

    end = max(t for t, _ in readings) + 5
    lines = [Line("power_measurement_start", {"value": None}, 0), Line("conversion_eff", {"value": efficiency}, 0),
             *(Line("power_reading", {"value": watts}, t) for t, watts in readings)]
    if stop:
        lines.append(Line("power_measurement_stop", {"value": None}, end))
    if not stop and max(t for t, _ in readings) == 0:
        return
    assert power_arith.power_node(list(lines), time_to_train) == summarizer._compute_power_node(list(lines), time_to_train)
    switch = [Line("conversion_eff", {"value": efficiency}, 0), Line("interconnect_power_est", {"value": 120.0}, 1)]
    assert power_arith.power_switch(switch, time_to_train) == summarizer._compute_power_sw(switch, time_to_train)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(1, 1e9), min_size=1, max_size=12), st.integers(0, 2), st.integers(0, 2), st.randoms())
def test_the_transcribed_olympic_average_is_the_summarizer_s(scores, dropped, max_dropped, rng):
    from mlperf_logging.result_summarizer import result_summarizer as summarizer

    from mlperf_report.suites.training import power_arith

    index = list(range(len(scores)))
    rng.shuffle(index)
    assert power_arith.index_olympic_average(scores, index, dropped, max_dropped) == \
        summarizer._index_olympic_average(scores, index, dropped, max_dropped)


def test_power_uses_the_summarizer_where_checked_and_the_transcription_elsewhere(monkeypatch):
    from mlperf_report.suites.training import power, power_arith

    assert power.summarizer_arithmetic()[0].__module__.startswith("mlperf_logging")
    monkeypatch.setitem(compat.CHECKED, "mlperf-logging", ("0.0.1", "0.0.2"))
    assert power.summarizer_arithmetic() == (power_arith.power_node, power_arith.power_switch,
                                             power_arith.index_olympic_average)


def _sleep(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("checked", [True, False])
def test_a_pool_is_stopped_by_the_private_path_or_shut_down_by_the_public_one(checked, monkeypatch):
    import concurrent.futures
    import time

    from mlperf_report.core import processes

    if not checked:
        monkeypatch.setitem(compat.CHECKED, "python", ("2.0.0", "2.7.18"))
    import multiprocessing

    # a spawned worker, not a fork of this test process: a forked pytest-xdist worker that is sent
    # SIGTERM takes its parent's handlers and channel with it (the xdist worker was reported interrupted)
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    running = pool.submit(time.sleep, 6 if checked else 0.2)
    while not running.running():
        time.sleep(0.01)
    workers = list(pool._processes.values())
    started = time.perf_counter()
    processes.terminate_pool(pool, grace=2)
    with pytest.raises(RuntimeError):
        pool.submit(_sleep, 0)
    if checked:
        assert time.perf_counter() - started < 3 and not any(w.is_alive() for w in workers)  # the task had 6 s to go
    else:
        assert running.result(timeout=5) is None and running.done()  # the plain path lets the running task finish


def test_the_cjk_font_is_made_the_only_one_of_its_family_by_public_calls():
    from matplotlib import font_manager

    from mlperf_report.i18n import fonts

    manager = font_manager.fontManager
    assert fonts.register_matplotlib_cjk() == fonts.CJK_FAMILY
    before = list(manager.ttflist)
    ours = next(e for e in manager.ttflist if e.name == fonts.CJK_FAMILY)
    copy = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))  # a file that exists
    try:
        from dataclasses import replace

        manager.ttflist = [replace(ours, fname=copy), *manager.ttflist]
        manager.findfont(font_manager.FontProperties(family=fonts.CJK_FAMILY))  # found and cached: the copy
        assert fonts.register_matplotlib_cjk() == fonts.CJK_FAMILY
        assert not any(e.fname == copy and e.name == fonts.CJK_FAMILY for e in manager.ttflist)
        assert manager.ttflist == before  # in its order, nothing added twice
        found = manager.findfont(font_manager.FontProperties(family=fonts.CJK_FAMILY))
        assert found == ours.fname  # the cache of what was found before is void
    finally:
        manager.ttflist = before
