"""The report's title in the email body is the one report.yaml gives for the round's suite and the
recipient's language, read by the same configuration loader as the report: the shipped file titles
each suite per language, and a send once wrote that mapping into the body as a Python dict."""

from __future__ import annotations

import os

import yaml
from smtp_server import MailServer, make_project, send

import smtp_server
from mlperf_report.core import paths


def test_the_shipped_title_reaches_each_recipient_as_text_in_their_language(tmp_path):
    project = make_project(tmp_path)
    config = yaml.safe_load(project["config_path"].read_text(encoding="utf-8"))
    config["title"] = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))["title"]  # per suite and language
    stamp = os.stat(project["config_path"]).st_mtime  # the reports stay newer than their configuration
    project["config_path"].write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    os.utime(project["config_path"], (stamp, stamp))
    handler = MailServer()
    controller = smtp_server.start(handler)
    try:
        assert send(project, controller.port, list_name="press") == 0
    finally:
        controller.stop()
    bodies = {item.rcpt_tos[0]: item.message.get_body(("plain",)).get_content() for item in handler.received}
    assert "MLPerf Training results" in bodies["press@example.com"]
    assert "MLPerf Training 測試結果" in bodies["press-tw@example.com"]
    assert all("{" not in body and "'en'" not in body for body in bodies.values())
