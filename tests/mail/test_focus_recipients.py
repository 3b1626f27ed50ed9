"""Recipients with a focus: "the Dell account team gets the Dell story". A recipients list of three
focuses and two languages, sent through a real local SMTP server: exactly one mail per recipient, each
carrying the PDF of its focus's report in its language; a second run sends nothing; a recipient whose
report was not built is refused before any message, with the command that builds it."""

from __future__ import annotations

import json
import os

import pytest
import yaml

import smtp_server
from mlperf_report.assemble.batch import focus_dir
from mlperf_report.core.config import Focus
from mlperf_report.core.errors import UserError
from mlperf_report.mail import outbox

ROUND = smtp_server.ROUND
FOCUSES = {"graphcore": Focus("submitter", "Graphcore"), "nvidia": Focus("submitter", "NVIDIA"),
           "a100": Focus("accelerator", "A100")}


def _project(root, built=FOCUSES):
    project = smtp_server.make_project(root)
    config = yaml.safe_load(project["config_path"].read_text(encoding="utf-8"))
    config["mail"]["lists"]["accounts"] = [
        {"name": "Graphcore team", "email": "gc@example.com", "lang": "en", "focus": "Graphcore"},
        {"name": "Graphcore 台灣", "email": "gc-tw@example.com", "lang": "zh-Hant", "focus": "Graphcore"},
        {"name": "NVIDIA team", "email": "nv@example.com", "lang": "en", "focus": "NVIDIA"},
        {"name": "A100 partners", "email": "a100@example.com", "lang": "zh-Hant", "focus_accelerator": "A100"},
    ]
    project["config_path"].write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    past = project["config_path"].stat().st_mtime - 3600
    os.utime(project["config_path"], (past, past))
    pdfs = {}
    for name, focus in built.items():
        folder = focus_dir(project["output_dir"], ROUND, focus) / ROUND
        (folder / "figures").mkdir(parents=True)
        figures = {**smtp_server.FIGURES, "focus_submitter": focus.key}
        (folder / "figures" / "resnet.json").write_text(json.dumps(figures), encoding="utf-8")
        for lang in ("en", "zh-Hant"):
            pdfs[(name, lang)] = smtp_server.tiny_pdf(f"{name} report {lang}")
            (folder / f"report.{lang}.pdf").write_bytes(pdfs[(name, lang)])
    return project, pdfs


def _send(project, port):
    environ = {"SMTP_HOST": smtp_server.HOST, "SMTP_PORT": str(port), "SMTP_SECURITY": "none"}
    return outbox.send_reports(round_id=ROUND, config_path=project["config_path"], data_dir=project["data_dir"],
                               output_dir=project["output_dir"], list_name="accounts", environ=environ,
                               retry=smtp_server.FAST)


def test_each_recipient_gets_its_focus_s_report_once(tmp_path, server):
    handler, controller = server
    project, pdfs = _project(tmp_path)
    assert _send(project, controller.port) == 0

    got = handler.by_recipient()
    assert sorted(got) == ["a100@example.com", "gc-tw@example.com", "gc@example.com", "nv@example.com"]
    assert all(len(items) == 1 for items in got.values())
    expected = {"gc@example.com": ("graphcore", "en"), "gc-tw@example.com": ("graphcore", "zh-Hant"),
                "nv@example.com": ("nvidia", "en"), "a100@example.com": ("a100", "zh-Hant")}
    for address, key in expected.items():
        message = got[address][0].message
        [pdf] = [p for p in message.iter_attachments() if p.get_content_type() == "application/pdf"]
        assert pdf.get_content() == pdfs[key], address
    assert got["nv@example.com"][0].message["Subject"] == "MLPerf® Training v1.0 results: NVIDIA report"
    assert "A100" in got["a100@example.com"][0].message["Subject"]

    log = [json.loads(line) for line in (project["round_dir"] / "mail" / "sent.jsonl").read_text().splitlines()]
    assert {(e["recipient"], e["focus"]) for e in log if e["status"] == "sent"} == {
        ("gc@example.com", "Graphcore"), ("gc-tw@example.com", "Graphcore"), ("nv@example.com", "NVIDIA"),
        ("a100@example.com", "accelerator:A100")}

    handler.received.clear()
    assert _send(project, controller.port) == 0  # a second run: everyone has their report
    assert handler.received == []


def test_a_recipient_whose_report_was_not_built_is_refused_before_any_message(tmp_path, server):
    handler, controller = server
    project, _ = _project(tmp_path, built={"graphcore": FOCUSES["graphcore"]})
    with pytest.raises(UserError, match=r"reports not built for the focus of some recipients \(NVIDIA: nv@example.com; "
                                        r"A100: a100@example.com\); build them with `python build.py report --round "
                                        r"training-v1.0 --focus-each 'NVIDIA,accelerator:A100'`"):
        _send(project, controller.port)
    assert handler.received == []
