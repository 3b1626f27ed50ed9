"""Nothing stale after a change: each deliverable's stamp (``report_stamp``) covers every module,
template, catalogue and font that shapes it, formats included although they are imported by name
(``import_module``), which no static import shows. Before this, an edit of ``formats/slides.py`` or
``kit_charts.py`` printed "reports: up to date" and kept the old deck byte for byte.

Every module under ``assemble/``, every template and the catalogues are edited one by one in a copy
of the project, where the stamp's own code computes the digests (one process for all of them: a
digest, no report, per edit); each edit must change the stamp of every format it shapes, and a
format's own module that of its format alone."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mlperf_report.assemble import formats, report_stamp
from mlperf_report.core import paths

ALL = tuple(formats.BUILT_IN)
PLAN = type("P", (), {"round_id": "training-v1.0"})()
ASSEMBLE = "mlperf_report/assemble/"

#: What each edited file shapes, where it is not every format (the shared document's code, templates
#: and catalogues shape them all): exactly these, nothing else stale.
OWN = {f"{ASSEMBLE}formats/{name}.py": {name} for name in ALL} | {
    f"{ASSEMBLE}formats/slides.py": {"slides", "cards"},  # the cards take the deck's faces and footer
    "templates/brief.html.j2": {"brief"},
} | {  # the page's templates (formats.PAGE_TEMPLATES): the formats that show or print the page
    str(p.relative_to(paths.ROOT)): {"html", "pdf", "exhibits"}
    for t in formats.PAGE_TEMPLATES for p in ([t] if t.is_file() else sorted(t.rglob("*"))) if p.is_file()
}
#: Code that only some formats import: at least these (moving it into the shared document is no error).
AT_LEAST = {f"{ASSEMBLE}workbook.py": {"workbook"}, f"{ASSEMBLE}fixed_zip.py": {"workbook", "slides", "cards"},
            f"{ASSEMBLE}text_fit.py": {"slides", "cards"}, f"{ASSEMBLE}brand_art.py": {"slides", "cards"}}
#: Modules under assemble/ that shape no deliverable, and why.
PLUMBING = {
    f"{ASSEMBLE}batch.py": "runs one build per focus; each focus's reports are stamped by the build",
    f"{ASSEMBLE}fork_server.py": "imports the warm-up (report_pools.WARM_UP, stamped) in the fork server",
    f"{ASSEMBLE}compile_templates.py": "compiles the templates into the cache at `make venv`; the templates are stamped",
}
CATALOGUES = ("data/benchmarks.yaml", "data/accelerators.yaml", "data/prices.yaml", "data/report.yaml")


def _edited() -> list[str]:
    found = [p for p in (paths.ROOT / ASSEMBLE).rglob("*.py") if "__pycache__" not in p.parts]
    found += [p for p in (*paths.TEMPLATES.rglob("*"), *paths.LOCALE.rglob("*")) if p.is_file()]
    return sorted({str(p.relative_to(paths.ROOT)) for p in found} | set(CATALOGUES))


EDITED = _edited()

#: Made in the copy, once: edit a file, take every format's digest, put the file back.
_PROBE = """
import json, sys
from pathlib import Path
from mlperf_report.core import paths
assert paths.ROOT == Path.cwd().resolve(), paths.ROOT
from mlperf_report.assemble import formats, report_stamp
names = tuple(formats.BUILT_IN)
plan = type("P", (), {"round_id": "training-v1.0"})()
digests = lambda: report_stamp.digests(plan, [], paths.PRICES, paths.REPORT_CONFIG, names, {})
before, changed = digests(), {}
for relative in json.loads(sys.stdin.read()):
    path = paths.ROOT / relative
    kept = path.read_bytes()
    path.write_bytes(kept + b"\\n")
    now = digests()
    path.write_bytes(kept)
    changed[relative] = [name for name in names if now[name] != before[name]]
assert digests() == before, "every file put back: the same stamps"
print(json.dumps(changed))
"""


@pytest.fixture(scope="module")
def changed(tmp_path_factory) -> dict[str, set[str]]:
    copy = tmp_path_factory.mktemp("project")
    for folder in ("mlperf_report", "templates", "locale"):
        shutil.copytree(paths.ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "data").mkdir()
    for name in CATALOGUES:
        shutil.copy(paths.ROOT / name, copy / name)
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, "-c", _PROBE], cwd=copy, env=env, input=json.dumps(EDITED),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return {name: set(formats_) for name, formats_ in json.loads(done.stdout).items()}


@pytest.mark.parametrize("edited", EDITED)
def test_an_edit_makes_stale_every_deliverable_it_shapes(changed, edited):
    if edited in PLUMBING:
        assert changed[edited] == set(), f"{edited}: shapes no deliverable ({PLUMBING[edited]})"
    elif edited in OWN:
        assert changed[edited] == OWN[edited], "its formats rebuilt, the others kept"
    else:
        assert changed[edited] >= AT_LEAST.get(edited, set(ALL)), f"{edited} shapes them"
        assert edited in AT_LEAST or changed[edited] == set(ALL)


def test_the_edited_files_are_every_module_template_and_catalogue():
    assert {f"{ASSEMBLE}formats/slides.py", f"{ASSEMBLE}kit_charts.py", f"{ASSEMBLE}formats/__init__.py",
            "templates/report.css", "templates/nbconvert/report/index.html.j2",
            "locale/zh_Hant/LC_MESSAGES/messages.po", "locale/messages.pot"} <= set(EDITED)
    assert set(PLUMBING) | set(AT_LEAST) | set(OWN) <= set(EDITED), "no name in the tables is out of date"


def test_a_changed_font_file_makes_every_deliverable_stale(tmp_path, monkeypatch):
    """Debian's fonts-noto-cjk (used without the pinned package) has no package version: its file is stamped."""
    from mlperf_report.i18n import fonts

    font = tmp_path / "NotoSansCJK-Regular.ttc"
    font.write_bytes(b"a font")
    monkeypatch.setattr(fonts, "cjk_font_path", lambda: font)
    before = report_stamp.digests(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, ALL, {})
    font.write_bytes(b"an upgraded font")
    after = report_stamp.digests(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, ALL, {})
    assert all(after[name] != before[name] for name in ALL)


def test_a_plug_in_format_edited_in_a_copy_changes_its_stamp_alone(tmp_path, monkeypatch):
    source = Path(__file__).with_name("toy_format.py")
    copy = tmp_path / "toy_format_copy.py"
    shutil.copy(source, copy)
    spec = importlib.util.spec_from_file_location("toy_format_copy", copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "toy_format_copy", module)
    formats.register(module)
    try:
        chosen = ("html", module.name)
        assert copy in report_stamp.report_inputs(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, chosen)
        before = report_stamp.digests(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, chosen, {})
        copy.write_text(copy.read_text() + "\n# a changed margin\n")
        after = report_stamp.digests(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, chosen, {})
        assert after[module.name] != before[module.name] and after["html"] == before["html"]
    finally:
        formats.unregister(module.name)


@pytest.mark.parametrize("name", ALL)
def test_only_the_formats_chosen_are_inputs(name):
    own = f"{ASSEMBLE}formats/{name}.py"
    inputs = {str(p.relative_to(paths.ROOT)) for p in
              report_stamp.report_inputs(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, (name,)) if p.is_relative_to(paths.ROOT)}
    assert own in inputs
    assert own not in {str(p.relative_to(paths.ROOT)) for p in
                       report_stamp.report_inputs(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, ())}


def test_an_upgraded_drawing_or_print_package_makes_the_reports_stale():
    versions = report_stamp.shaping_versions()
    assert set(versions) == set(report_stamp.SHAPING_PACKAGES)
    import matplotlib
    import pptx
    import weasyprint
    assert versions["matplotlib"] == matplotlib.__version__
    assert versions["python-pptx"] == pptx.__version__
    assert versions["weasyprint"] == weasyprint.__version__


def test_an_edited_deck_is_rebuilt_and_the_report_pdf_kept(tmp_path):
    """The acceptance, end to end in a copy of the project: a built report whose deck's code is then
    edited rebuilds the deck and keeps the HTML and PDF, byte for byte and untouched on disk; the next
    run is a no-op; an edit of how the contents list the deck makes the page and the PDF again."""
    import yaml

    from synthetic_round import write_tree

    copy = tmp_path / "project"
    for folder in ("mlperf_report", "templates", "locale", "notebooks"):
        shutil.copytree(paths.ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    (copy / "data").mkdir()
    for name in ("build.py", "requirements.txt", *CATALOGUES):
        shutil.copy(paths.ROOT / name, copy / name)
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    (copy / "data" / "report.yaml").write_text(yaml.safe_dump({**config, "deliverables": ["html", "pdf", "slides"]},
                                                               allow_unicode=True), encoding="utf-8")
    data, out = write_tree(tmp_path / "data"), tmp_path / "out"

    def build() -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "build.py", "report", "--round", "training-v1.0", "--benchmarks", "resnet",
                               "--languages", "en", "--data-dir", str(data), "--output-dir", str(out), "-j", "2"],
                              cwd=copy, env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        return done

    build()
    round_out = out / "training-v1.0"
    kept = [round_out / name for name in ("report.en.pdf", "report.en.html", "report.pdf")]
    deck = round_out / "slides.en.pptx"
    before = {path: (path.stat().st_mtime_ns, path.read_bytes()) for path in [*kept, deck]}
    slides = copy / ASSEMBLE / "formats" / "slides.py"
    slides.write_text(slides.read_text(encoding="utf-8") + "\n# a changed margin\n", encoding="utf-8")
    again = build()
    assert "reports: assembling en (slides); up to date: html, pdf" in again.stderr, again.stderr[-2000:]
    assert all((path.stat().st_mtime_ns, path.read_bytes()) == before[path] for path in kept)
    assert deck.stat().st_mtime_ns != before[deck][0]
    made = json.loads((round_out / "deliverables.json").read_text(encoding="utf-8"))["en"]
    assert list(made) == ["html", "pdf", "slides"] and made["pdf"] == ["report.en.pdf", "report.pdf"]
    assert "reports: up to date (en)" in build().stderr

    # how the contents list the deck is the page's too: changed, the page and the PDF are made again
    source = slides.read_text(encoding="utf-8")
    said = 'label("kit.slides", kit.lang))'
    assert source.count(said) == 1
    slides.write_text(source.replace(said, '"The deck, renamed")'), encoding="utf-8")
    build()
    assert "The deck, renamed" in (round_out / "report.en.html").read_text(encoding="utf-8")
    assert all(path.stat().st_mtime_ns != before[path][0] for path in kept)


def test_a_changed_table_of_the_round_makes_the_workbook_stale_and_keeps_the_rest(tmp_path):
    """The workbook shows every result of the round: a fixed name in ``results.csv`` that no notebook
    shows must still rebuild it; the formats made from the notebooks keep their stamps."""
    shutil.copytree(paths.DATA / "training-v1.0", tmp_path / "training-v1.0")
    plan = type("P", (), {"round_id": "training-v1.0", "data_dir": tmp_path})()
    digests = lambda: report_stamp.digests(plan, [], paths.PRICES, paths.REPORT_CONFIG, ALL, {})  # noqa: E731
    before = digests()
    with (tmp_path / "training-v1.0" / "results.csv").open("a", encoding="utf-8") as tables:
        tables.write("\n")
    after = digests()
    assert {name for name in ALL if after[name] != before[name]} == {"workbook"}


def test_the_stamps_of_every_format_are_taken_without_pandas():
    """What an up-to-date build does before it says so: every format's stamp, from files read, not
    modules imported (the cards' module alone imports pandas: 0.34 s of a 0.14 s no-op rebuild)."""
    code = ("import sys; from pathlib import Path; from mlperf_report.core import paths; "
            "from mlperf_report.assemble import formats, report_stamp; "
            "plan = type('P', (), {'round_id': 'training-v1.0'})(); "
            "report_stamp.digests(plan, [], paths.PRICES, paths.REPORT_CONFIG, tuple(formats.BUILT_IN), {}); "
            "print('pandas' in sys.modules, 'matplotlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False"]
