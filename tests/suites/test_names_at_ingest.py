"""Names at ingest (issue 44): a systems JSON whose submitter differs from its folder only by spaces,
underscores or a number after it is read as the folder's name, said once per submitter, in both
suites; the chips data/accelerators.yaml does not resolve are listed once after the summary line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlperf_report.core.sources import open_source
from mlperf_report.ingest.summary import unknown_chips_line
from mlperf_report.ingest.systems import folder_submitter
from mlperf_report.suites.inference.ingest import ingest as inference_ingest
from mlperf_report.suites.inference.rounds import parse_round as inference_round
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest as training_ingest
from tests.inference_trees import OFFLINE, RESNET_ACC, result as inference_result
from tests.trees import result_set, write

ROOT = Path(__file__).resolve().parents[2]
RTX = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
MIXED = "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)"


def _system(submitter: str, accelerator: str, host: str = "Neoverse-V2") -> str:
    return json.dumps({"submitter": submitter, "division": "closed", "status": "available",
                       "system_name": f"{submitter} system", "number_of_nodes": "1", "host_processors_per_node": "2",
                       "host_processor_model_name": host, "accelerators_per_node": "8",
                       "accelerator_model_name": accelerator, "framework": "PyTorch", "system_type": "datacenter"})


def _training_tree(root: Path) -> Path:
    """Google/ whose systems JSONs say Google_1; Netweb_Technologies_India_LTD/ whose JSON says it with
    spaces; Dell/ whose JSON says Dell EMC (another name: today's rule); chips unknown, mixed, known."""
    for system, chip in (("tpu", "TPU-v5p"), ("rtx", RTX)):
        write(root, f"Google/systems/{system}.json", _system("Google_1", chip))
        result_set(root, "Google", system, "resnet", [30.0, 31.0, 29.0, 35.0, 28.0])
    write(root, "Netweb_Technologies_India_LTD/systems/n8.json", _system("Netweb Technologies India LTD", MIXED))
    result_set(root, "Netweb_Technologies_India_LTD", "n8", "resnet", [20.0, 21.0, 22.0, 23.0, 24.0])
    write(root, "Dell/systems/d8.json", _system("Dell EMC", "NVIDIA Blackwell GPU (B300-SXM-270GB)"))
    result_set(root, "Dell", "d8", "resnet", [20.0, 21.0, 22.0, 23.0, 24.0])
    return root


def _ingest(ingest, path: Path, round_):
    source, facts = open_source(str(path))
    try:
        return ingest(source, facts, round_, jobs=1, compliance=False) if ingest is training_ingest \
            else ingest(source, facts, round_)
    finally:
        source.close()


def test_training_reads_the_folder_s_name_where_the_json_differs_only_in_spelling_and_says_so_once(tmp_path):
    res = _ingest(training_ingest, _training_tree(tmp_path / "tree"), rounds.parse_round("training-v5.1"))
    scored = res.results[res.results["status"] == "ok"]
    assert sorted(set(scored["submitter"])) == ["Dell EMC", "Google", "Netweb_Technologies_India_LTD"]
    assert sorted(set(res.systems["submitter"])) == ["Dell EMC", "Google", "Netweb_Technologies_India_LTD"]
    told = [p for p in res.problems if "read as its folder's name" in p["problem"]]
    assert len(told) == 2, told       # Google once for its two systems, Netweb once; Dell EMC not at all
    assert {p["file"].split("/")[0] for p in told} == {"Google", "Netweb_Technologies_India_LTD"}
    assert all(p["file"].endswith(".json") for p in told)


def test_inference_systems_table_reads_the_folder_s_name_too(tmp_path):
    top = tmp_path / "inference_results_v4.1"
    write(top, "closed/Google/systems/g8.json", _system("Google_1", "TPU v6e"))
    inference_result(top, "closed", "Google", "g8", "resnet50", "Offline", OFFLINE, RESNET_ACC)
    res = _ingest(inference_ingest, top, inference_round("inference-v4.1"))
    assert set(res.results["submitter"]) == {"Google"} and set(res.systems["submitter"]) == {"Google"}
    assert [p["file"] for p in res.problems if "read as its folder's name" in p["problem"]] == \
        ["closed/Google/systems/g8.json"]


@pytest.mark.parametrize("written, folder, expected", [
    ("Google_1", "Google", "Google"), ("Google 2", "Google", "Google"), ("google-3", "Google", "Google"),
    ("Netweb Technologies India LTD", "Netweb_Technologies_India_LTD", "Netweb_Technologies_India_LTD"),
    ("Dell EMC", "DellEMC", "Dell EMC"), ("PCL & PKU", "PCL", "PCL & PKU"), ("Nettrix", "nettrix", "Nettrix"),
    ("Clemson University Research Computing and Data", "Clemson", "Clemson University Research Computing and Data"),
    ("HabanaLabs", "Habana", "HabanaLabs"), ("Googlers", "Google", "Googlers"), ("", "Google", "Google")])
def test_the_folder_wins_only_over_a_spelling_of_its_own_name(written, folder, expected):
    """The embedded rounds' differing spellings (Dell EMC, PCL & PKU, Nettrix, Clemson, HabanaLabs) keep
    today's rule: the systems JSON's, which MLCommons' Training table prints."""
    assert folder_submitter(written, folder) == expected


@given(st.from_regex(r"[A-Za-z][A-Za-z ]{0,20}[A-Za-z]", fullmatch=True), st.sampled_from(["_", " ", "-", ""]),
       st.integers(0, 99))
def test_a_folder_name_with_a_number_after_it_is_the_folder(folder, sep, number):
    assert folder_submitter(f"{folder}{sep}{number}", folder) == folder
    assert folder_submitter(folder.replace(" ", "_"), folder) == folder
    assert folder_submitter(f"{folder}{sep}x{number}", folder) == f"{folder}{sep}x{number}"


def test_the_chips_the_catalogue_does_not_resolve_are_listed_once(tmp_path):
    res = _ingest(training_ingest, _training_tree(tmp_path / "tree"), rounds.parse_round("training-v5.1"))
    line = unknown_chips_line(res)
    assert line == (f"not in data/accelerators.yaml: {MIXED!r}, {RTX!r}; named as written; "
                    "add it for generation and debut claims")


def test_ingest_prints_the_unknown_chips_once_after_the_summary_line(tmp_path):
    tree = _training_tree(tmp_path / "tree")
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "ingest", str(tree), "--round", "training-v5.1",
                           "--out", str(tmp_path / "out"), "--no-compliance"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[-1].startswith("not in data/accelerators.yaml: ") and lines[-2].startswith("training-v5.1: ")
    assert sum(line.count(RTX) for line in lines) == 1 and sum(line.count("MI325X") for line in lines) == 1
    assert done.stderr.count("submitter 'Google_1' read as its folder's name 'Google'") == 1
