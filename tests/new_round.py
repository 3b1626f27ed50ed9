"""A Training round the tool has never seen, as a user meets it on round day: Training v6.0's
benchmarks, chips spelled as v6.0 spells them (a B300 written four ways, one of them "NVIDIA
Blackwell GPU (B300-SXM-270GB)"), a workstation card and a chip the catalogue has never heard of, a
system of two chips, Grace hosts written ``Neoverse-V2``, a systems JSON that spells its submitter
``Google_1`` in ``Google/``, each submitter's ``summary.json`` (MLCommons' own numbers) and MLCommons'
results table with the result IDs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.trees import run_log, write

ROUND = "training-v6.0"
BENCHMARK = "llama31_8b"
URL = "https://github.com/mlcommons/training_results_v6.0/blob/main/{org}/systems/{system}.json"
RTX = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
UNKNOWN = "Acme Q9 Tensor Unit"
MIXED = "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)"

#: folder, system id, the JSON's submitter, its name, chip, host, chips per node, nodes, minutes, ID
SYSTEMS = [
    ("NVIDIA", "gb300_a", "NVIDIA", "NVIDIA B300 node A", "NVIDIA Blackwell GPU (B300-SXM-270GB)", "Neoverse-V2", 8, 1, 10.0, "6.0-0101"),
    ("NVIDIA", "b300_b", "NVIDIA", "NVIDIA B300 node B", "NVIDIA B300 SXM6 PC", "Neoverse-V2", 8, 1, 10.6, "6.0-0102"),
    ("NVIDIA", "b200", "NVIDIA", "NVIDIA DGX B200", "NVIDIA B200-SXM-180GB", "Intel(R) Xeon(R) Platinum 8570", 8, 1, 16.0, "6.0-0103"),
    ("Supermicro", "rtx8", "Supermicro", "Supermicro RTX box", RTX, "AMD EPYC 9554 64-Core Processor", 8, 1, 40.0, "6.0-0201"),
    ("Supermicro", "b300_c", "Supermicro", "Supermicro B300 box", "NVIDIA Blackwell Ultra GPU (B300-SXM-270GB)", "Neoverse-V2", 8, 1, 10.3, "6.0-0202"),
    ("Google", "tpu8", "Google_1", "Google TPU pod", "TPU-v5p", "AMD EPYC 7B13", 8, 1, 25.0, "6.0-0301"),
    ("Acme_Corp", "q9", "Acme Corp", "Acme Q9 pod", UNKNOWN, "ARM Cortex-A78AE", 8, 1, 12.0, "6.0-0401"),
    ("AMD", "mixed", "AMD", "AMD mixed cluster", MIXED, "AMD EPYC 9575F", 48, 6, 9.0, "6.0-0501"),
]


def _json(submitter: str, name: str, chip: str, host: str, chips: int, nodes: int) -> str:
    return json.dumps({"submitter": submitter, "division": "closed", "status": "Available on-premise",
                       "system_name": name, "number_of_nodes": str(nodes), "host_processors_per_node": "2",
                       "host_processor_model_name": host, "accelerators_per_node": str(chips // nodes),
                       "accelerator_model_name": chip, "framework": "PyTorch"}, indent=2)


def tree(root: Path, runs: int) -> Path:
    """The round's tree (``runs`` result files per system), without summaries."""
    top = root / "training_results_v6.0"
    for org, system, submitter, name, chip, host, chips, nodes, minutes, _ in SYSTEMS:
        write(top, f"{org}/systems/{system}.json", _json(submitter, name, chip, host, chips, nodes))
        for i in range(runs):
            write(top, f"{org}/results/{system}/{BENCHMARK}/result_{i}.txt",
                  run_log(minutes + 0.01 * (i - runs // 2), benchmark=BENCHMARK, seed=i))
    return top


def add_summaries(top: Path, scores: dict[tuple[str, str], float], *, planted: tuple[str, str] | None = None) -> None:
    """Each submitter's summary.json with the given scores (``planted``: one result 1 % slower)."""
    by_org: dict[str, list[dict]] = {}
    for org, system, _, name, chip, host, chips, nodes, _, _ in SYSTEMS:
        time = scores[(org, system)] * (1.01 if (org, system) == planted else 1.0)
        by_org.setdefault(org, []).append({
            "division": "closed", "availability": "Available on-premise", "submitter": org, "system": name,
            "number_of_nodes": str(nodes), "host_processor_model_name": host, "host_processors_count": 2 * nodes,
            "accelerator_model_name": chip, "accelerators_count": chips, "framework": "PyTorch", "notes": "",
            "private_id": "", f"{BENCHMARK}:time_to_train": round(time, 10), f"{BENCHMARK}:Energy": None,
            f"{BENCHMARK}:GBS": 256.0, f"{BENCHMARK}:samples_to_converge": None, f"{BENCHMARK}:RCP": "Pass",
            f"{BENCHMARK}:rcp_scaling_factor": None, "details_url": URL.format(org=org, system=system),
            "code_url": f"https://github.com/mlcommons/training_results_v6.0/blob/main/{org}/benchmarks"})
    for org, rows in by_org.items():
        (top / org / "summary.json").write_text(json.dumps(rows, indent=2))


def results_table(path: Path) -> Path:
    """MLCommons' results table as a CSV of ``id, submitter, system``."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "submitter", "system"])
        for org, _, _, name, *_, result_id in SYSTEMS:
            writer.writerow([result_id, org, name])
    return path
