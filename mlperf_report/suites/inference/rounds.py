"""Inference round facts: which rules of MLCommons' submission checker apply to a round.

Rounds newer than the newest the tool knows take the newest known rules (the checker changes slowly;
the manifest records that the rules were carried over). Rounds v2.0 to v3.1 take v4.0's rules the same
way: from v2.0 the checker reads the same LoadGen fields (early stopping; the latency MultiStream), so the
results are read alike and the rules that differ (targets, seeds, audit tests) are reported, not enforced.
Before v2.0 MultiStream measured something else (samples per query); those rounds are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.core.rounds import RoundId, parse_round_id
from mlperf_report.suites.inference.checker_rules import RULES, Rules, rules_for

#: Rounds whose rules were read from the checker; later rounds reuse the last one's.
KNOWN_VERSIONS = tuple(sorted(RULES))
#: The oldest round read (with the oldest known rules, not enforced).
OLDEST = (2, 0)


@dataclass(frozen=True)
class Round:
    """One MLPerf Inference round, e.g. ``Round(4, 1)`` is ``inference-v4.1``."""

    major: int
    minor: int

    @property
    def round_id(self) -> RoundId:
        return RoundId("inference", self.major, self.minor)

    @property
    def id(self) -> str:
        return self.round_id.id

    @property
    def version(self) -> str:
        return self.round_id.version

    @property
    def title(self) -> str:
        return self.round_id.title

    @property
    def rules_version(self) -> tuple[int, int]:
        """The known round whose checker rules apply (the newest not after this one)."""
        known = [v for v in KNOWN_VERSIONS if v <= (self.major, self.minor)]
        return known[-1] if known else KNOWN_VERSIONS[0]

    @property
    def rules_carried_over(self) -> bool:
        return self.rules_version != (self.major, self.minor)

    @property
    def rules(self) -> Rules:
        """The submission checker's tables that apply to this round."""
        return rules_for((self.major, self.minor))

    def previous(self) -> "Round":
        return Round(self.major, self.minor - 1) if self.minor else Round(self.major - 1, 1)

    def __str__(self) -> str:
        return self.id


def parse_round(text: str) -> Round:
    """``inference-v4.1`` to its Round; a ValueError naming the problem otherwise."""
    parsed = parse_round_id(text, default_suite="inference")
    if parsed.suite != "inference":
        raise ValueError(f"{parsed.id} is not an MLPerf Inference round")
    if (parsed.major, parsed.minor) < OLDEST:
        raise ValueError(f"{parsed.id}: Inference rounds before v{OLDEST[0]}.{OLDEST[1]} are not supported "
                         "(their MultiStream result is samples per query, not a latency; this tool reads "
                         f"v{OLDEST[0]}.{OLDEST[1]} and later)")
    return Round(parsed.major, parsed.minor)
