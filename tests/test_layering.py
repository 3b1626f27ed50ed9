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
