"""The mail tests' real SMTP server (aiosmtpd on localhost), one per test."""

from __future__ import annotations

import pytest

import smtp_server


@pytest.fixture
def server():
    handler = smtp_server.MailServer()
    controller = smtp_server.start(handler)
    yield handler, controller
    controller.stop()
