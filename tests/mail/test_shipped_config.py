"""The default report sent with the shipped data/report.yaml (its titles given per suite and language)
through a real local SMTP server: the body reads the title as text, in English and in Chinese. A
second configuration loader with other defaults once mailed ``Attached is the report "{'en': ...}"``."""

from __future__ import annotations

import json
import os


import smtp_server
from mlperf_report.core import paths
from mlperf_report.mail import outbox


def test_the_default_report_mailed_with_the_shipped_configuration_names_its_title(tmp_path, server):
    handler, controller = server
    data_dir, output_dir = tmp_path / "data", tmp_path / "output"
    (data_dir / "training-v1.0").mkdir(parents=True)
    (data_dir / "training-v1.0" / "results.csv").write_text("submitter,system_id,benchmark\n", encoding="utf-8")
    round_dir = output_dir / "training-v1.0"
    (round_dir / "figures").mkdir(parents=True)
    (round_dir / "figures" / "resnet.json").write_text(json.dumps(smtp_server.FIGURES), encoding="utf-8")
    for lang in ("en", "zh-Hant"):
        (round_dir / f"report.{lang}.pdf").write_bytes(smtp_server.tiny_pdf(f"report {lang}"))
    past = os.stat(paths.REPORT_CONFIG).st_mtime - 1  # the tables are older than the reports built from them
    os.utime(data_dir / "training-v1.0" / "results.csv", (past, past))

    environ = {"SMTP_HOST": smtp_server.HOST, "SMTP_PORT": str(controller.port), "SMTP_SECURITY": "none"}
    for lang, address in (("en", "reader@example.com"), ("zh-Hant", "reader-tw@example.com")):
        assert outbox.send_reports(round_id=None, config_path=paths.REPORT_CONFIG, data_dir=data_dir,
                                   output_dir=output_dir, to=[address], lang=lang, environ=environ,
                                   retry=smtp_server.FAST) == 0

    bodies = {item.rcpt_tos[0]: item.message.get_body(("plain",)).get_content() for item in handler.received}
    assert 'Attached is the report "MLPerf Training results" for MLPerf® Training v1.0' in bodies["reader@example.com"]
    assert "附件為報告「MLPerf Training 測試結果」（MLPerf® Training v1.0" in bodies["reader-tw@example.com"]
    assert not any("{'en'" in body for body in bodies.values())
