"""SMTP transport: settings from config + environment, TLS by default, retries for what may pass.

Secrets come only from the environment (``SMTP_USER`` / ``SMTP_PASSWORD``) and every text this module
hands back goes through ``redact``, so the password cannot reach output, logs or the send log.
Failures are sorted three ways: transient (4xx, dropped connection, timeout) are retried with
exponential backoff on a fresh connection; permanent (5xx, refused address) end that one message;
fatal (login refused, TLS failure, no STARTTLS) stop the whole run before anything else is attempted.
"""

from __future__ import annotations

import base64
import ipaddress
import smtplib
import ssl
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

from mlperf_report.core.errors import UserError

SECURITIES = ("starttls", "ssl", "none")
DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}

#: Refusals of one message after which smtplib has reset the transaction and the connection is reusable.
_MESSAGE_REFUSALS = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)


class Fatal(UserError):
    """A problem that stops all sending (login, TLS, server capabilities); the message says the fix."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    security: str = "starttls"
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    cafile: str | None = None
    timeout: float = 30.0

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port} ({self.security})"


@dataclass(frozen=True)
class Retry:
    """How hard to try one message: ``attempts`` in all, waiting ``backoff`` s, then doubling."""

    attempts: int = 4
    backoff: float = 2.0

    def delay(self, attempt: int) -> float:
        return self.backoff * 2 ** (attempt - 1)


@dataclass(frozen=True)
class Outcome:
    """What happened to one message: delivered, or why not and whether trying again could help."""

    ok: bool
    detail: str
    attempts: int
    permanent: bool = False
    #: the whole message reached the server but its reply never came: it may have been delivered
    uncertain: bool = False


class _Tracking:
    """Remembers whether the end of DATA (the final ``.``) was handed to the server: after that point a
    lost reply means the message may have been delivered, and sending it again could deliver it twice."""

    data_ended = False
    _in_data = False

    def data(self, msg):
        self._in_data, self.data_ended = True, False
        try:
            return super().data(msg)
        finally:
            self._in_data = False

    def send(self, s):
        super().send(s)
        if self._in_data and isinstance(s, bytes) and s.endswith(b"\r\n.\r\n"):
            self.data_ended = True


class _SMTP(_Tracking, smtplib.SMTP):
    pass


class _SMTP_SSL(_Tracking, smtplib.SMTP_SSL):
    pass


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def settings_from(smtp_config: Mapping, environ: Mapping[str, str], insecure: bool = False) -> SmtpSettings:
    """Settings from ``mail: smtp:`` overridden by ``SMTP_*`` variables; credentials from the environment only."""
    smtp_config = dict(smtp_config or {})
    for secret in ("user", "password", "username"):
        if secret in smtp_config:
            raise UserError(f"`mail: smtp: {secret}:` found in the report configuration; secrets never go "
                            "there: remove it and set SMTP_USER / SMTP_PASSWORD in the environment")
    security = str(environ.get("SMTP_SECURITY") or smtp_config.get("security") or "starttls").lower()
    if security not in SECURITIES:
        raise UserError(f"SMTP security {security!r} is not one of {', '.join(SECURITIES)} "
                        "(SMTP_SECURITY or `mail: smtp: security:`)")
    host = str(environ.get("SMTP_HOST") or smtp_config.get("host") or "localhost")
    port_text = environ.get("SMTP_PORT") or smtp_config.get("port") or DEFAULT_PORTS[security]
    try:
        port = int(port_text)
    except (TypeError, ValueError):
        raise UserError(f"SMTP port {port_text!r} is not a number (SMTP_PORT or `mail: smtp: port:`)") from None
    user = environ.get("SMTP_USER") or None
    password = environ.get("SMTP_PASSWORD") or None
    if bool(user) != bool(password):
        raise UserError("set both SMTP_USER and SMTP_PASSWORD to log in, or neither for a relay without login")
    for variable, value in (("SMTP_USER", user), ("SMTP_PASSWORD", password)):
        if value and not value.isascii():  # smtplib's AUTH encodes ASCII only; say so before anything is sent
            raise UserError(f"{variable} contains non-ASCII characters, which SMTP login (AUTH PLAIN/LOGIN as "
                            "Python's smtplib sends it) cannot carry; use an ASCII user name and password "
                            "(e.g. an app password)")
    if security == "none" and not is_loopback(host) and not insecure:
        raise UserError(f"SMTP security `none` sends mail{' and the password' if password else ''} in clear "
                        f"text to {host}; use starttls or ssl, or pass --insecure if that network is trusted")
    return SmtpSettings(host=host, port=port, security=security, user=user, password=password,
                        cafile=smtp_config.get("cafile"), timeout=float(smtp_config.get("timeout", 30)))


def redact(text: str, settings: SmtpSettings) -> str:
    """``text`` with the password (plain and as AUTH PLAIN / LOGIN encode it) replaced by ``***``."""
    if not settings.password:
        return text
    user, password = settings.user or "", settings.password
    forms = {password,
             base64.b64encode(password.encode()).decode(),
             base64.b64encode(f"\0{user}\0{password}".encode()).decode(),
             base64.b64encode(f"{user}\0{user}\0{password}".encode()).decode()}
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, "***")
    return text


def _reply(code: int, message: bytes | str) -> str:
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return f"{code} {text}".strip()


def classify(error: BaseException) -> tuple[str, str]:
    """(``transient`` | ``permanent`` | ``fatal``, what the server or socket said)."""
    if isinstance(error, smtplib.SMTPAuthenticationError):
        return "fatal", _reply(error.smtp_code, error.smtp_error)
    if isinstance(error, smtplib.SMTPNotSupportedError):
        return "fatal", str(error)
    if isinstance(error, ssl.SSLError):
        return "fatal", f"TLS failed: {error}"
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        code, message = next(iter(error.recipients.values()), (550, b"recipient refused"))
        return ("transient" if 400 <= code < 500 else "permanent"), _reply(code, message)
    if isinstance(error, smtplib.SMTPResponseException):
        code = error.smtp_code
        kind = "permanent" if 500 <= code < 600 else "transient"
        return kind, _reply(code, error.smtp_error)
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return "transient", f"connection dropped: {str(error) or 'server closed the connection'}"
    if isinstance(error, OSError):
        return "transient", f"{type(error).__name__}: {error}"
    return "permanent", f"{type(error).__name__}: {error}"


class Session:
    """One SMTP connection, opened on first use and reopened after a transient failure."""

    def __init__(self, settings: SmtpSettings, retry: Retry = Retry(),
                 sleep: Callable[[float], None] = time.sleep, note: Callable[[str], None] = lambda _: None):
        self.settings, self.retry, self.sleep, self.note = settings, retry, sleep, note
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self, polite: bool = True) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        try:
            smtp.quit() if polite else smtp.close()
        except (smtplib.SMTPException, OSError):
            smtp.close()

    def _context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.settings.cafile)

    def connect(self) -> None:
        """Connect, secure and log in; raises Fatal (with the fix) for what retrying cannot mend."""
        s = self.settings
        if s.security == "ssl":
            smtp = _SMTP_SSL(s.host, s.port, timeout=s.timeout, context=self._context())
        else:
            smtp = _SMTP(s.host, s.port, timeout=s.timeout)
        self._smtp = smtp
        smtp.ehlo()
        if s.security == "starttls":
            if not smtp.has_extn("starttls"):
                raise Fatal(f"{s.host}:{s.port} does not offer STARTTLS; use SMTP_SECURITY=ssl (usually "
                            "port 465) if it speaks implicit TLS, or check SMTP_HOST / SMTP_PORT")
            smtp.starttls(context=self._context())
            smtp.ehlo()
        if s.user:
            if not smtp.has_extn("auth"):
                raise Fatal(f"{s.where} does not offer login (AUTH) on this connection; unset "
                            "SMTP_USER / SMTP_PASSWORD for a relay that trusts your network, or use TLS")
            smtp.login(s.user, s.password)

    def _fatal(self, error: BaseException, detail: str) -> Fatal:
        s = self.settings
        if isinstance(error, smtplib.SMTPAuthenticationError):
            text = (f"SMTP login as {s.user!r} at {s.where} was refused ({detail}); "
                    "check SMTP_USER and SMTP_PASSWORD")
        elif isinstance(error, ssl.SSLError):
            text = (f"TLS with {s.where} failed ({detail}); check SMTP_HOST, SMTP_SECURITY, and for a private "
                    "CA set `mail: smtp: cafile:`")
        else:
            text = f"{s.where}: {detail}"
        return Fatal(redact(text, s))

    def send(self, sender: str, recipient: str, data: bytes) -> Outcome:
        """Deliver ``data`` to one recipient, retrying transient failures; Fatal stops everything."""
        detail = ""
        for attempt in range(1, self.retry.attempts + 1):
            try:
                if self._smtp is None:
                    self.connect()
                self._smtp.data_ended = False
                self._smtp.sendmail(sender, [recipient], data)
                return Outcome(True, "250 accepted", attempt)
            except Fatal:
                self.close(polite=False)
                raise
            except (smtplib.SMTPException, OSError) as error:
                kind, detail = classify(error)
                detail = redact(detail, self.settings)
                if getattr(self._smtp, "data_ended", False) and not isinstance(error, _MESSAGE_REFUSALS):
                    self.close(polite=False)  # no reply to the end of DATA: never retried (could deliver twice)
                    return Outcome(False, f"the message was sent but the server's reply was lost ({detail}); "
                                          "it may have been delivered", attempt, uncertain=True)
                if kind == "fatal":
                    self.close(polite=False)
                    raise self._fatal(error, detail) from None
                if kind == "permanent":
                    if not isinstance(error, _MESSAGE_REFUSALS):
                        self.close(polite=False)
                    return Outcome(False, detail, attempt, permanent=True)
                self.close(polite=False)
                if attempt < self.retry.attempts:
                    wait = self.retry.delay(attempt)
                    self.note(f"{recipient}: {detail}; retrying in {wait:g} s ({attempt}/{self.retry.attempts})")
                    self.sleep(wait)
        return Outcome(False, detail, self.retry.attempts, permanent=False)
