"""The house's shape: imports only go down the stage order, and no function outgrows a screen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mlperf_report"

#: Stage order: a module may import from its own subpackage and from those to its left only.
LAYERS = ["core", "i18n", "ingest", "analysis", "narrative", "suites", "assemble", "mail", "cli"]
MAX_FUNCTION_LINES = 60


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def _layer(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [(node.lineno, n) for n in names if n.startswith("mlperf_report.")]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("mlperf_report.")]
    return found


def test_every_module_sits_in_a_stage():
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules outside a stage subpackage: {loose}"
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(LAYERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_go_down_the_stage_order(path):
    layer = _layer(path)
    if layer is None:
        return
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    wrong = []
    for line, name in _imported(ast.parse(path.read_text(), str(path))):
        target = name.split(".")[1]
        if target in LAYERS and target not in allowed:
            wrong.append(f"line {line}: {name}")
    assert not wrong, f"{path.relative_to(PACKAGE)} ({layer}) imports upward: {wrong}"


def test_import_check_catches_an_upward_import(tmp_path):
    tree = ast.parse("from mlperf_report.cli import main\nimport mlperf_report.mail.smtp\n")
    assert [n for _, n in _imported(tree)] == ["mlperf_report.cli", "mlperf_report.cli.main", "mlperf_report.mail.smtp"]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_longer_than_a_screen(path):
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.relative_to(PACKAGE)}: {long}"


# --- the suite seam ---------------------------------------------------------------------------------

SUITES_DIR = PACKAGE / "suites"
MAX_MODULE_LINES = 400
MAX_CLI_MODULE_LINES = 120


def _suite_of(path: Path) -> str | None:
    """The suite folder a module lives in (``suites/<name>/...``), else None."""
    parts = path.relative_to(PACKAGE).parts
    return parts[1] if len(parts) > 2 and parts[0] == "suites" else None


def _suite_names() -> list[str]:
    return sorted(p.name for p in SUITES_DIR.iterdir() if (p / "__init__.py").is_file())


def _seam_breaches(path: Path, source: str) -> list[str]:
    """Imports of a suite by name, or comparisons with a suite's name, outside that suite's folder."""
    if path == SUITES_DIR / "__init__.py":  # the registry: the one place that names suites
        return []
    home, tree, found = _suite_of(path), ast.parse(source), []
    others = [name for name in _suite_names() if name != home]  # a suite may say its own name
    for line, name in _imported(tree):
        parts = name.split(".")
        if len(parts) > 2 and parts[1] == "suites" and parts[2] in _suite_names() and parts[2] != home:
            found.append(f"line {line}: imports {name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if isinstance(operand, ast.Constant) and operand.value in others:
                    found.append(f"line {node.lineno}: compares with the suite name {operand.value!r}")
                if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) and any(
                        isinstance(e, ast.Constant) and e.value in others for e in operand.elts):
                    found.append(f"line {node.lineno}: compares with suite names")
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "startswith" and any(
                isinstance(a, ast.Constant) and str(a.value).rstrip("-_") in others for a in node.args):
            found.append(f"line {node.lineno}: tells a suite by a name prefix")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_a_suite_names_it(path):
    breaches = _seam_breaches(path, path.read_text())
    assert not breaches, f"{path.relative_to(PACKAGE)} reaches into a suite by name: {breaches}"


def test_the_seam_check_catches_a_suite_named_outside_its_folder():
    cli = PACKAGE / "cli" / "x.py"
    assert _seam_breaches(cli, "from mlperf_report.suites.training import rounds\n")
    assert _seam_breaches(cli, "import mlperf_report.suites.inference.models\n")
    assert _seam_breaches(cli, "if suite.name == 'inference':\n    pass\n")
    assert _seam_breaches(cli, "if name in ('training', 'x'):\n    pass\n")
    assert _seam_breaches(cli, "x = round_id.startswith('inference-')\n")
    assert not _seam_breaches(cli, "from mlperf_report.suites import suite_for\n")
    inside = SUITES_DIR / "training" / "x.py"
    assert not _seam_breaches(inside, "from mlperf_report.suites.training import rounds\n")
    assert not _seam_breaches(inside, "ok = parsed.suite == 'training'\n")
    assert _seam_breaches(inside, "from mlperf_report.suites.inference import models\n")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path):
    lines = len(path.read_text().splitlines())
    limit = MAX_CLI_MODULE_LINES if _layer(path) == "cli" else MAX_MODULE_LINES
    assert lines <= limit, f"{path.relative_to(PACKAGE)}: {lines} lines (at most {limit}); split it by concern"


def _cycle_in(package: str) -> list[str] | None:
    """A cycle of imports among the modules of ``package`` (module-level, in functions and under
    TYPE_CHECKING alike), or None."""
    modules = {f"mlperf_report.{package}.{p.stem}": p for p in (PACKAGE / package).glob("*.py") if p.stem != "__init__"}
    edges = {name: {n for _, n in _imported(ast.parse(path.read_text())) if n in modules and n != name}
             for name, path in modules.items()}
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]):
        state[name] = 1
        for other in sorted(edges[name]):
            if state.get(other) == 1:
                return trail[trail.index(other):] + [other] if other in trail else [name, other]
            if other not in state and (found := visit(other, trail + [other])):
                return found
        state[name] = 2
        return None

    for name in sorted(modules):
        if name not in state and (found := visit(name, [name])):
            return found
    return None


def test_the_assemble_modules_import_each_other_in_one_direction():
    """document makes a report, report_pools runs documents in processes: the pools import the
    document, never the other way round (they imported each other once)."""
    assert _cycle_in("assemble") is None, _cycle_in("assemble")


# --- the format seam --------------------------------------------------------------------------------

FORMATS_DIR = PACKAGE / "assemble" / "formats"
#: Types a notebook's outputs carry as well (Jupyter's display data): naming them is not naming a format.
NOTEBOOK_TYPES = {"text/html", "image/png", "image/svg+xml"}


def _format_words() -> tuple[set[str], set[str]]:
    """The built-in formats' file names (a language as ``{}``, as an f-string reads) and MIME types."""
    from mlperf_report.assemble import formats
    from mlperf_report.assemble.kit import Kit

    kit = Kit("{}", "training-v1.0", "", "", "", "", (), has_exhibits=True)
    files, types = set(), set()
    for name in formats.BUILT_IN:
        fmt = formats.get(name)
        files.update([*fmt.files(kit), *getattr(fmt, "copies", ())])
        types.update(getattr(fmt, "mime", {}).values())
    return files, types - NOTEBOOK_TYPES


def _shape(node) -> str | None:
    """A string literal's text, an f-string's with ``{}`` for each value; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _format_breaches(source: str, files: set[str], types: set[str]) -> list[str]:
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    found = []
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        text = _shape(node)
        if text is not None and (text in files or any(t in text for t in types)):
            found.append(f"line {node.lineno}: {text!r}")
    return found


def test_no_module_outside_the_formats_names_a_formats_file_or_type():
    """Mail, batch, the document, configuration and checks ask the registry (``assemble.formats``)."""
    files, types = _format_words()
    assert {"report.{}.pdf", "report.pdf", "slides.{}.pptx", "results.xlsx"} <= files and "application/pdf" in types
    breaches = {str(p.relative_to(PACKAGE)): found for p in _modules() if FORMATS_DIR not in p.parents
                and (found := _format_breaches(p.read_text(), files, types))}
    assert not breaches, f"format names outside assemble/formats/: {breaches}"


def test_the_format_check_catches_a_file_name_or_a_type():
    files, types = _format_words()
    assert _format_breaches('name = f"slides.{lang}.pptx"\n', files, types)
    assert _format_breaches('copy = "report.pdf"\n', files, types)
    assert _format_breaches('kind = "application/pdf"\n', files, types)
    assert not _format_breaches('"""Writes report.pdf."""\ntemplate = "report.html.j2"\n', files, types)
