"""A format that lives only in the tests: the lead claims as plain text, one file per language. It
uses nothing but the interface of ``mlperf_report.assemble.formats`` and the document it is given
(``report_document.Report``)."""

name = "claims_txt"
per_language = True


def files(kit):
    return (f"claims.{kit.lang}.txt",)


def companion(kit):
    return (f"claims.{kit.lang}.txt", "the claims, as text")


def make(report):
    kit = report.kit
    lines = [kit.title, *(f"- {claim.text} [{', '.join(claim.cites)}]" for claim in kit.claims)]
    return {f"claims.{kit.lang}.txt": ("\n".join(lines) + "\n").encode("utf-8")}
