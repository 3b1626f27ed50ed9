"""How a cited result is named: by its MLCommons result ID where known (grouped by round, division,
benchmark and scenario), else by its path; where the results were retrieved; whether a story cites a
result of its round without an ID; and the Training suite's precedence: the table's ID first,
``source.result_ids`` filling gaps, a disagreement said once."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import story
from mlperf_report.narrative import citations, story_text
from mlperf_report.suites.training import citing, narrative

ROUND = "training-v5.1"
A = f"{ROUND}/closed/Acme/box-8/bert"
B = f"{ROUND}/closed/Rival/big-8/bert"
C = f"{ROUND}/closed/Acme/box-8/resnet"
OLD = "training-v5.0/closed/Acme/box-8/bert"


def test_results_of_one_benchmark_are_one_citation_listing_their_ids():
    found = citations.items([A, B, C, OLD], {A: "5.1-0002", B: "5.1-0007", C: "5.1-0002"}, "en")
    assert found == ["MLPerf® Training v5.1, closed division, bert, result IDs 5.1-0002, 5.1-0007",
                     "MLPerf® Training v5.1, closed division, resnet, result ID 5.1-0002", OLD]
    zh = citations.items([A, B], {A: "5.1-0002", B: "5.1-0007"}, "zh-Hant", bench=lambda b, r, lang: b.upper())
    assert zh == ["MLPerf® Training v5.1，封閉組，BERT，成績編號 5.1-0002、5.1-0007"]


def test_something_that_is_not_an_id_is_never_cited_as_one():
    for value in ("", "  ", "training-v5.1/closed/Acme", "5.1", "abc-0002", None, float("nan")):
        assert citations.official_id(value) is None
        assert citations.items([A], {A: value}, "en") == [A]
    assert citations.official_id(" 5.1-0002 ") == "5.1-0002" and citations.official_id("0.5-12.resnet") == "0.5-12.resnet"


_PART = st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_PART, _PART, st.sampled_from(["bert", "resnet"]), st.one_of(st.none(), st.integers(1, 999))),
                min_size=1, max_size=8, unique_by=lambda t: t[:3]))
def test_every_id_is_cited_and_every_result_without_one_keeps_its_path(rows):
    cites = [f"{ROUND}/closed/{s}/{i}/{b}" for s, i, b, _ in rows]
    ids = {c: f"5.1-{n:04d}" for c, (_, _, _, n) in zip(cites, rows) if n is not None}
    text = " | ".join(citations.items(cites, ids, "en"))
    assert all(i in text for i in ids.values())
    assert all(c in text for c in cites if c not in ids) and not any(c in text for c in ids)


def test_a_note_keeps_its_path_wording_without_ids_and_says_where_and_when_with_them():
    claim = {"angle": "leadership", "kind": "first_overall", "cites": (A, B), "derived": False, "facts": {}}
    assert story_text.note_text(claim, "en", str, retrieval=("https://x", "2025-06-04")) == f"Based on: {A} and {B}."
    cited = {**claim, "cite_ids": {A: "5.1-0002", B: "5.1-0007"}}
    assert story_text.note_text(cited, "en", str, retrieval=("https://x", "2025-06-04")) == (
        "Based on: MLPerf® Training v5.1, closed division, bert, result IDs 5.1-0002, 5.1-0007. "
        "Retrieved from https://x on 4 June 2025.")
    assert story_text.note_text(cited, "zh-Hant", str, retrieval=("https://x", None)).endswith("資料擷取自 https://x。")


def test_the_retrieval_source_is_the_configured_one_only_for_its_own_round():
    repo = "https://github.com/mlcommons/training_results_v5.1"
    assert citations.source_of({"url": repo, "retrieved": "2025-06-04"}, ROUND) == (repo, "2025-06-04")
    other = {"url": "https://github.com/mlcommons/training_results_v5.0", "retrieved": "2025-01-01"}
    assert citations.source_of(other, ROUND) == (repo, None)
    assert citations.source_of({}, "inference-v4.1") == ("https://github.com/mlcommons/inference_results_v4.1", None)


def test_a_tree_main_url_is_kept_for_its_round_and_never_carried_to_another():
    """One answer for the narrative and the story's notes: the training narrative kept ``/tree/main``
    on another round's repository (v0.7's branch is not ``main``), the story's notes did not."""
    given = {"url": "https://github.com/mlcommons/training_results_v1.0/tree/main", "retrieved": "2021-06-30"}
    assert citations.source_of(given, "training-v1.0") == (given["url"], "2021-06-30")
    assert citations.source_of(given, "training-v0.7") == ("https://github.com/mlcommons/training_results_v0.7", None)


def test_a_story_carries_the_ids_of_its_cited_results_and_says_which_are_missing():
    told = {"headline": {"cites": [A, B]}, "highlights": [{"cites": [C]}], "body": [{"cites": [OLD]}]}
    marked = story.with_cite_ids(told, {A: "5.1-0002", C: "5.1-0002", OLD: "5.0-0001"})
    assert marked["headline"]["cite_ids"] == {A: "5.1-0002"} and marked["body"][0]["cite_ids"] == {OLD: "5.0-0001"}
    assert citations.missing(citations.story_claims(marked), ROUND)  # B has none
    assert not citations.missing(citations.story_claims(story.with_cite_ids(told, {A: "5.1-1", B: "5.1-2", C: "5.1-3"})),
                                 ROUND)  # OLD is another round's: no hint for it


_CLAIM = st.one_of(st.none(), st.fixed_dictionaries({"n": st.integers(0, 99)}))


@given(headline=_CLAIM, highlights=st.lists(_CLAIM, max_size=3), body=st.lists(_CLAIM, max_size=4))
def test_one_walk_of_the_story_changes_every_claim_once_and_keeps_the_rest(headline, highlights, body):
    """``story.each_claim`` is the walk both ``with_cite_ids`` and the Training suite's ``story_ids``
    make: each claim changed once, in place, an absent one left absent, other keys untouched."""
    told = {"headline": headline, "highlights": highlights, "body": body, "focus_kind": "submitter"}
    changed = story.each_claim(told, lambda claim: {**claim, "n": claim["n"] + 1000})
    bump = lambda claim: claim and {"n": claim["n"] + 1000}  # noqa: E731
    assert changed == {**told, "headline": bump(headline), "highlights": [bump(c) for c in highlights],
                       "body": [bump(c) for c in body]}


def test_the_configured_map_fills_gaps_and_a_disagreement_is_said_once():
    config = {"round": ROUND, "source": {"result_ids": {"Rival/big-8": "5.1-0007", "Acme/box-8": "5.1-0099"}}}
    told = {"headline": {"cites": [A, B], "cite_ids": {A: "5.1-0002"}}, "highlights": [], "body": []}
    filled = narrative.story_ids(told, config, ROUND)["headline"]["cite_ids"]
    assert filled == {A: "5.1-0002", B: "5.1-0007"}  # the table's ID first, the map's where it has none
    figures = {"bert": {"focus": {"closed": [{"submitter": "Acme", "system_id": "box-8", "result_id": A,
                                              "mlcommons_id": "5.1-0002"}] * 2}}}
    lines = citing.conflicts(figures, config, ROUND)
    assert lines == [f"citations: report.yaml source.result_ids gives 5.1-0099 for Acme/box-8; the results table of "
                     f"{ROUND} has 5.1-0002, which is cited"]


def test_a_focus_result_without_an_id_asks_for_the_ids_once_every_one_has_one():
    config = {"round": ROUND, "focus_submitter": "Acme", "source": {"result_ids": {"Acme/box-4": "5.1-0004"}}}
    summary = {"round": ROUND, "story": {"headline": {"cites": [A], "cite_ids": {A: "5.1-0002"}}}}

    class Config(dict):
        round = ROUND

    def figures(box8_id):
        return {"bert": {"focus": {"closed": [
            {"submitter": "Acme", "system_id": "box-8", "result_id": A, "mlcommons_id": box8_id},
            {"submitter": "Acme", "system_id": "box-4", "result_id": A.replace("box-8", "box-4"), "mlcommons_id": None}]}}}
    assert citing.notices(figures("5.1-0002"), summary, Config(config)) == []
    hint = citing.notices(figures(None), summary, Config(config))
    assert len(hint) == 1 and hint[0].startswith(f"citations: {ROUND} has no MLCommons result ID") and "--official" in hint[0]
