"""mail: the PDFs to stakeholders over SMTP, exactly once.

Concern: recipients of a run (``recipients``), the report check (``report_check``), the messages
(``message``), SMTP delivery (``smtp``) and the send log (``sendlog``).
May import: core, i18n, ingest, suites, analysis, narrative, assemble.
Public: ``message.build_message``, ``smtp.send_all``, ``sendlog.SendLog``.
"""
