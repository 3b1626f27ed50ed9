"""A tiny synthetic data/ tree in the ingest tables' format, for the analysis tests.

Scores are the official MLPerf Training v1.0 figures of the press release (so expected perf/$ ratios
are the published ones); the v0.7 round and the 'Acme' submitter are invented.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

RESULT_COLUMNS = ["round", "division", "availability", "submitter", "system_id", "system_name", "benchmark",
                  "score_min", "runs_found", "runs_required", "runs_converged", "scaling_factor", "status",
                  "status_detail", "accelerator_model", "accelerators", "host_processor_model", "host_processors",
                  "nodes", "framework"]
RUN_COLUMNS = ["round", "division", "submitter", "system_id", "benchmark", "run", "time_to_train_min", "converged",
               "run_start_ms", "run_stop_ms", "global_batch_size", "seed", "file"]

IPU = ("Graphcore", "GC200 IPU", "AMD EPYC 7742")
A100 = ("NVIDIA", "NVIDIA A100-SXM-80GB", "AMD EPYC 7742")

# (division, submitter, system_id, system_name, benchmark, score, accelerators, host procs, nodes, framework, status)
V10 = [
    ("closed", "Graphcore", "ipu-pod16-TF1", "IPU-POD16", "resnet", 37.12, 16, 2, 1, "TensorFlow", "ok"),
    ("closed", "Graphcore", "ipu-pod64-TF1", "IPU-POD64", "resnet", 14.48, 64, 8, 4, "TensorFlow", "ok"),
    ("closed", "NVIDIA", "dgxa100_ngc21.05_mxnet", "NVIDIA DGX A100 (8x A100 80GB)", "resnet", 28.77, 8, 2, 1, "MXNet", "ok"),
    ("closed", "NVIDIA", "dgxa100_n8_ngc21.05_mxnet", "8 x NVIDIA DGX A100", "resnet", 4.5, 64, 16, 8, "MXNet", "ok"),
    ("closed", "Acme", "acme-box-4", "Acme Box 4", "resnet", 80.0, 4, 1, 1, "PyTorch", "ok"),
    ("closed", "Acme", "acme-box-8", "Acme Box 8", "resnet", None, 8, 1, 1, "PyTorch", "incomplete"),
    ("closed", "Graphcore", "ipu-pod16-POPART-closed", "IPU-POD16", "bert", 34.49, 16, 2, 1, "PopART", "ok"),
    ("closed", "Graphcore", "ipu-pod64-POPART-closed", "IPU-POD64", "bert", 11.08, 64, 2, 1, "PopART", "ok"),
    ("open", "Graphcore", "ipu-pod64-POPART-open", "IPU-POD64", "bert", 9.39, 64, 2, 1, "PopART", "ok"),
    ("closed", "NVIDIA", "dgxa100_ngc21.05_pytorch", "NVIDIA DGX A100 (8x A100 80GB)", "bert", 21.69, 8, 2, 1, "PyTorch", "ok"),
    ("closed", "Acme", "acme-box-8", "Acme Box 8", "bert", None, 8, 1, 1, "PyTorch", "not_converged"),
]
V07 = [
    ("closed", "NVIDIA", "dgxa100_ngc20.06_mxnet", "NVIDIA DGX A100", "resnet", 39.78, 8, 2, 1, "MXNet", "ok"),
    ("closed", "Acme", "acme-box-4", "Acme Box 4", "resnet", 95.0, 4, 1, 1, "PyTorch", "ok"),
    ("closed", "NVIDIA", "dgxa100_ngc20.06_pytorch", "NVIDIA DGX A100", "bert", 49.01, 8, 2, 1, "PyTorch", "ok"),
]
DETAILS = {"ok": "", "incomplete": "incomplete: 1 of 5 runs present", "not_converged": "not_converged: 3 of 10 runs did not converge"}


def _result_rows(round_id: str, rows) -> list[dict]:
    out = []
    for division, submitter, system_id, name, benchmark, score, acc, procs, nodes, framework, status in rows:
        model, host = (IPU[1], IPU[2]) if submitter == "Graphcore" else (A100[1], A100[2])
        required = 10 if benchmark == "bert" else 5
        found = 1 if status == "incomplete" else required
        converged = found - (3 if status == "not_converged" else 0)
        out.append({"round": round_id, "division": division, "availability": "available", "submitter": submitter,
                    "system_id": system_id, "system_name": name, "benchmark": benchmark,
                    "score_min": "" if score is None else repr(score), "runs_found": found,
                    "runs_required": required, "runs_converged": converged, "scaling_factor": "",
                    "status": status, "status_detail": DETAILS[status], "accelerator_model": model,
                    "accelerators": acc, "host_processor_model": host, "host_processors": procs, "nodes": nodes,
                    "framework": framework})
    return out


def _run_rows(results: list[dict]) -> list[dict]:
    """Runs around each score (spread ±3 %), the last run of unconverged entries marked so."""
    out = []
    for r in results:
        centre = float(r["score_min"]) if r["score_min"] else 50.0
        for i in range(int(r["runs_found"])):
            minutes = centre * (1 + 0.03 * ((i % 3) - 1))
            converged = not (r["status"] == "not_converged" and i < 3)
            out.append({"round": r["round"], "division": r["division"], "submitter": r["submitter"],
                        "system_id": r["system_id"], "benchmark": r["benchmark"], "run": str(i),
                        "time_to_train_min": repr(minutes), "converged": str(converged),
                        "run_start_ms": 1_000_000, "run_stop_ms": 1_000_000 + int(minutes * 60_000),
                        "global_batch_size": 256, "seed": i,
                        "file": f"{r['submitter']}/results/{r['system_id']}/{r['benchmark']}/result_{i}.txt"})
    return out


def _write_csv(path: Path, columns: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def write_round(data_dir: Path, round_id: str, rows) -> Path:
    folder = Path(data_dir) / round_id
    folder.mkdir(parents=True, exist_ok=True)
    results = _result_rows(round_id, rows)
    _write_csv(folder / "results.csv", RESULT_COLUMNS, results)
    _write_csv(folder / "runs.csv", RUN_COLUMNS, _run_rows(results))
    systems = sorted({(r["submitter"], r["system_id"], r["system_name"]) for r in results})
    _write_csv(folder / "systems.csv", ["submitter", "system_id", "system_name"],
               [dict(zip(["submitter", "system_id", "system_name"], s)) for s in systems])
    (folder / "manifest.json").write_text(json.dumps({"round": round_id, "source": "synthetic", "problems": []}))
    return folder


def write_tree(data_dir: Path) -> Path:
    """data/training-v0.7 and data/training-v1.0 with resnet and bert."""
    write_round(data_dir, "training-v0.7", V07)
    write_round(data_dir, "training-v1.0", V10)
    return Path(data_dir)


# --- a v5-style round: new benchmark ids, an accelerator on three submitters, no prices ---------------

# (submitter, system_id, system_name, benchmark, minutes, accelerators, accelerator model, framework)
V50 = [
    ("AMD", "mi300x_x8", "AMD MI300X platform", "llama2_70b_lora", 29.0, 8, "AMD Instinct MI300X 192GB", "PyTorch ROCm"),
    ("Dell", "xe9680x8_mi300x", "PowerEdge XE9680", "llama2_70b_lora", 31.0, 8, "AMD Instinct MI300X", "PyTorch ROCm"),
    ("Lenovo", "sr685a_mi300x", "ThinkSystem SR685a V3", "llama2_70b_lora", 33.0, 8, "AMD MI300X-OAM", "PyTorch ROCm"),
    ("NVIDIA", "dgxb200_ngc25.04_nemo", "DGX B200", "llama2_70b_lora", 11.0, 8, "NVIDIA B200-SXM-180GB", "NeMo 25.04"),
    ("NVIDIA", "dgxb200_n64_ngc25.04_nemo", "DGX B200 x64", "llama2_70b_lora", 1.2, 512, "NVIDIA B200-SXM-180GB", "NeMo 25.04"),
    ("Google", "tpu-v5p-16", "tpu-v5p-16", "llama2_70b_lora", 40.0, 8, "TPU-v5p", "maxtext"),
    ("NVIDIA", "dgxb200_ngc25.04_dgl", "DGX B200", "rgat", 5.0, 8, "NVIDIA B200-SXM-180GB", "DGL 25.04"),
    ("NVIDIA", "dgxb200_ngc25.05_dgl", "DGX B200", "rgat", 4.8, 8, "NVIDIA B200-SXM-180GB", "DGL 25.05"),
    ("Dell", "xe9680x8_h200", "PowerEdge XE9680 H200", "rgat", 7.5, 8, "NVIDIA H200-SXM5-141GB", "DGL 25.04"),
    ("NVIDIA", "dgxb200_ngc25.04_pytorch", "DGX B200", "retinanet", 12.0, 8, "NVIDIA B200-SXM-180GB", "PyTorch 25.04"),
    ("Dell", "xe9680x8_h200", "PowerEdge XE9680 H200", "retinanet", 20.0, 8, "NVIDIA H200-SXM5-141GB", "PyTorch 25.04"),
]


def write_v5_round(data_dir: Path, round_id: str = "training-v5.0") -> Path:
    """A Training v5.0-style round (llama2_70b_lora, rgat, retinanet) where no system has a price,
    MI300X systems come from three submitters and two NVIDIA systems share the name "DGX B200"."""
    rows = []
    for submitter, system_id, name, benchmark, minutes, acc, model, framework in V50:
        rows.append({"round": round_id, "division": "closed", "availability": "available", "submitter": submitter,
                     "system_id": system_id, "system_name": name, "benchmark": benchmark, "score_min": repr(minutes),
                     "runs_found": 10, "runs_required": 10, "runs_converged": 10, "scaling_factor": "",
                     "status": "ok", "status_detail": "", "accelerator_model": model, "accelerators": acc,
                     "host_processor_model": "AMD EPYC 9654", "host_processors": 2 * max(acc // 8, 1),
                     "nodes": max(acc // 8, 1), "framework": framework})
    folder = Path(data_dir) / round_id
    folder.mkdir(parents=True, exist_ok=True)
    _write_csv(folder / "results.csv", RESULT_COLUMNS, rows)
    _write_csv(folder / "runs.csv", RUN_COLUMNS, _run_rows(rows))
    (folder / "manifest.json").write_text(json.dumps({"round": round_id, "source": "synthetic", "problems": []}))
    return Path(data_dir)


# --- a crowded round: today's sizes and names ---------------------------------------------------------

CROWDED_SUBMITTERS = ("NVIDIA", "AMD", "Dell", "Supermicro", "Quanta_Cloud_Technology", "Hewlett Packard Enterprise",
                      "Lenovo", "GigaComputing", "ASUSTeK", "Cisco", "Oracle", "CoreWeave", "Nebius", "MangoBoost",
                      "Clemson University Research Computing and Data", "Lambda", "Giga Computing Technology",
                      "University of Florida", "Wiwynn", "Krai")
CROWDED_BENCHMARKS = ("llama2_70b_lora", "retinanet", "rgat", "llama31_8b", "flux1", "dlrm_dcnv2", "llama31_405b")
_SIZES = (8, 8, 8, 8, 8, 8, 16, 32, 64, 72, 144, 512, 1024, 2560, 5120)


def crowded_rows(round_id: str = "training-v5.1", crowded: int = 80, others: int = 12) -> list[dict]:
    """``crowded`` systems with names of 100 and more characters on llama2_70b_lora (the focus NVIDIA
    at five sizes, some open-division results, MLPerf Training Power on a third) and ``others`` with
    names of today's length on every other benchmark of the round, in results.csv's format; the
    same rows every call."""
    import random

    rng = random.Random(51)
    rows = []
    for benchmark in CROWDED_BENCHMARKS:
        count = crowded if benchmark == "llama2_70b_lora" else others
        for i in range(count):
            submitter = "NVIDIA" if i % 7 == 0 else CROWDED_SUBMITTERS[i % len(CROWDED_SUBMITTERS)]
            accelerators = 8 * (1, 8, 64, 320, 640)[(i // 7) % 5] if submitter == "NVIDIA" else rng.choice(_SIZES)
            model = "NVIDIA GB300" if submitter == "NVIDIA" else rng.choice(("NVIDIA B200-SXM-180GB", "AMD Instinct MI355X",
                                                                             "NVIDIA H200-SXM5-141GB"))
            minutes = round(rng.uniform(9.0, 60.0) * 8 / accelerators ** 0.9, 4)
            name = (f"{submitter} ThinkSystem-Extended Edition {i} with {accelerators}x {model} liquid-cooled "
                    f"rack-scale cluster, 2x host processors per node" if count == crowded
                    else f"{submitter} XE{9680 + i} {accelerators}x {model.split()[-1]}")
            rows.append({"round": round_id, "division": "open" if i % 19 == 5 else "closed", "availability": "available",
                         "submitter": submitter, "system_id": f"{submitter.split()[0].lower()}_{benchmark}_{i}_n{accelerators}",
                         "system_name": name, "benchmark": benchmark, "score_min": repr(minutes), "runs_found": 10,
                         "runs_required": 10, "runs_converged": 10, "scaling_factor": "1.0", "status": "ok",
                         "status_detail": "ok", "accelerator_model": model, "accelerators": accelerators,
                         "host_processor_model": "AMD EPYC 9575F", "host_processors": max(2, accelerators // 4),
                         "nodes": max(1, accelerators // 8), "framework": "NeMo 25.09",
                         "energy_j": repr(round(rng.uniform(1e7, 9e7), 1)) if i % 3 == 0 else ""})
    return rows


def write_crowded_round(data_dir: Path, round_id: str = "training-v5.1") -> Path:
    """data/<round>/ of :func:`crowded_rows`."""
    rows = crowded_rows(round_id)
    folder = Path(data_dir) / round_id
    folder.mkdir(parents=True, exist_ok=True)
    _write_csv(folder / "results.csv", RESULT_COLUMNS + ["energy_j"], rows)
    _write_csv(folder / "runs.csv", RUN_COLUMNS, _run_rows(rows))
    (folder / "manifest.json").write_text(json.dumps({"round": round_id, "source": "synthetic", "problems": []}))
    return Path(data_dir)
