"""The seam, proven end to end: a toy third suite that lives only in ``tests/suites/toy/`` (its own results
format, one item notebook, one summary notebook, a one-sentence narrative) is registered at run time and
goes through ``ingest`` -> ``report`` (HTML and PDF, both languages) -> ``send --dry-run`` with the real
stages: no file of the package, its notebooks, templates or catalogues knows it or changes."""

from __future__ import annotations

import email
import email.policy
import os
from pathlib import Path

import pypdf
import pytest
import yaml

from mlperf_report import suites
from mlperf_report.cli.main import main
from mlperf_report.core import paths
from suites.toy.suite import SUITE

SHARED = ("mlperf_report", "notebooks", "templates", "locale", "data")


def _snapshot() -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for name in SHARED for p in (paths.ROOT / name).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture
def toy():
    suites.register(SUITE)
    yield SUITE
    suites.unregister(SUITE.name)


def _project(tmp_path: Path) -> dict[str, Path]:
    tree = tmp_path / "toy_results_v1.0"
    tree.mkdir()
    (tree / "scores.csv").write_text("submitter,system,item,score\nAcme,box,a,9\nBeta,crate,a,7\nBeta,crate,b,5\n",
                                     encoding="utf-8")
    config = tmp_path / "report.yaml"
    config.write_text(yaml.safe_dump({
        "round": "toy-v1.0", "focus_submitter": "none", "languages": ["en", "zh-Hant"],
        "mail": {"sender": "Reports <reports@example.com>", "smtp": {"host": "localhost", "port": 25, "security": "none"},
                 "lists": {"team": [{"name": "Team", "email": "team@example.com", "lang": "en"},
                                    {"name": "團隊", "email": "tw@example.com", "lang": "zh-Hant"}]},
                 "default_list": "team"}}, allow_unicode=True), encoding="utf-8")
    return {"tree": tree, "config": config, "data": tmp_path / "data", "out": tmp_path / "out"}


def test_a_suite_living_only_in_the_tests_goes_from_ingest_to_send(toy, tmp_path, capsys):
    before = _snapshot()
    p = _project(tmp_path)
    dirs = ["--data-dir", str(p["data"]), "--output-dir", str(p["out"]), "--config", str(p["config"])]

    assert main(["ingest", str(p["tree"]), "--out", str(p["data"] / "toy-v1.0")]) == 0
    assert (p["data"] / "toy-v1.0" / "results.csv").read_text().count("\n") == 4
    assert "toy-v1.0: 1 result files, 3 result sets" in capsys.readouterr().out

    assert main(["report", "--round", "toy-v1.0", "--jobs", "1", *dirs]) == 0
    round_out = p["out"] / "toy-v1.0"
    english = (round_out / "report.en.html").read_text(encoding="utf-8")
    chinese = (round_out / "report.zh-Hant.html").read_text(encoding="utf-8")
    assert "Acme leads a with a score of 9." in english and "Beta leads b with a score of 5." in english
    assert "Toy results" in english and "Item a" in english and "Item b" in english
    assert "Acme 在 a 領先，得分 9。" in chinese and "玩具測試結果" in chinese
    for lang in ("en", "zh-Hant"):
        text = "".join(page.extract_text() for page in pypdf.PdfReader(round_out / f"report.{lang}.pdf").pages)
        assert ("Beta leads b" if lang == "en" else "Beta 在 b 領先") in text.replace("\n", " ")

    capsys.readouterr()
    assert main(["send", "--round", "toy-v1.0", "--dry-run", *dirs]) == 0
    assert "nothing sent" in capsys.readouterr().out
    drafts = {path.name: email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
              for path in (round_out / "mail").glob("*.eml")}
    assert sorted(drafts) == ["en-team_example.com.eml", "zh-Hant-tw_example.com.eml"]
    body = drafts["en-team_example.com.eml"].get_body(("plain",)).get_content()
    assert "Toy results" in body and "Acme leads a with a score of 9." in body
    chinese_body = drafts["zh-Hant-tw_example.com.eml"].get_body(("plain",)).get_content()
    assert "玩具測試結果" in chinese_body and "Beta 在 b 領先" in chinese_body
    assert _snapshot() == before, "the toy suite needed a change outside its folder"


def test_the_toy_suite_is_unknown_once_unregistered(tmp_path, capsys):
    assert main(["report", "--round", "toy-v1.0", "--data-dir", str(tmp_path)]) == 2
    assert "MLPerf Toy is not supported" in capsys.readouterr().err
    assert not os.listdir(tmp_path)
