"""Small synthetic MLPerf results trees for tests: real MLLOG lines, ordinary log noise between them."""

from __future__ import annotations

import json
from pathlib import Path

T0 = 1_623_810_000_000  # a run_start time_ms


def mllog(key: str, time_ms: float, value=None, **metadata) -> str:
    record = {"namespace": "", "time_ms": time_ms, "event_type": "POINT_IN_TIME", "key": key,
              "value": value, "metadata": {"file": "train.py", "lineno": 1, **metadata}}
    return ":::MLLOG " + json.dumps(record)


def run_log(minutes: float | None, status: str = "success", benchmark: str = "resnet",
            division: str = "closed", noise: int = 20, start: bool = True, seed: int = 1,
            batch: int = 256) -> str:
    """A result file whose run took ``minutes`` (no run_stop when ``minutes`` is None)."""
    lines = [mllog("submission_benchmark", T0 - 5000, benchmark),
             mllog("submission_division", T0 - 5000, division),
             mllog("submission_org", T0 - 5000, "Acme"),
             mllog("seed", T0 - 4000, seed),
             mllog("global_batch_size", T0 - 4000, batch)]
    lines += [f"step {i}: loss=0.{i:04d} lr=0.1 (ordinary output, run_start is not here)" for i in range(noise)]
    if start:
        lines.append(mllog("run_start", T0))
    lines += [f"0: epoch {i} done; \"key\": \"eval\"" for i in range(noise)]
    lines.append(mllog("eval_accuracy", T0 + 1000, 0.76, epoch_num=1))
    if minutes is not None:
        lines.append(mllog("run_stop", T0 + minutes * 60_000, None, status=status))
    return "\n".join(lines) + "\n"


def system_json(submitter="Acme", division="closed", name="Acme X1", accelerators=8, nodes=1,
                cpus=2, status="onprem", framework="PyTorch 1.9") -> str:
    return json.dumps({
        "submitter": submitter, "division": division, "status": status, "system_name": name,
        "number_of_nodes": str(nodes), "host_processors_per_node": str(cpus),
        "host_processor_model_name": "AMD EPYC 7742", "accelerators_per_node": str(accelerators),
        "accelerator_model_name": "Acme A1", "framework": framework,
    }, indent=2)


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def result_set(root: Path, org: str, system: str, benchmark: str, minutes: list[float | None],
               statuses: list[str] | None = None, division: str = "closed") -> None:
    for i, value in enumerate(minutes):
        status = statuses[i] if statuses else "success"
        write(root, f"{org}/results/{system}/{benchmark}/result_{i}.txt",
              run_log(value, status=status, benchmark=benchmark, division=division, seed=i))


def good_tree(root: Path) -> Path:
    """Acme: x1 resnet (5 runs) and bert (10 runs, one aborted); Beta: open-division resnet."""
    write(root, "Acme/systems/x1.json", system_json())
    result_set(root, "Acme", "x1", "resnet", [30.0, 31.0, 29.0, 35.0, 28.0])
    result_set(root, "Acme", "x1", "bert", [20.0 + i for i in range(10)],
               statuses=["success"] * 9 + ["aborted"])
    write(root, "Beta/systems/b64.json", system_json(submitter="Beta", division="open", name="Beta 64",
                                                     accelerators=64, cpus=8))
    result_set(root, "Beta", "b64", "resnet", [10.0, 11.0, 12.0, 13.0, 14.0], division="open")
    return root


def compliant_log(minutes: float, benchmark: str = "resnet", division: str = "open", seed: int = 1,
                  init_minutes: float = 1.0, accuracy=0.76) -> str:
    """A result file that MLCommons' compliance checker (training 1.0.0 rules) accepts when
    ``init_minutes`` is under the 30-minute initialisation limit; ``accuracy`` goes into eval_accuracy."""
    init = T0 - init_minutes * 60_000 - 1000
    lines = [mllog("cache_clear", init - 1000, True),
             mllog("init_start", init),
             mllog("submission_org", init, "Acme"),
             mllog("submission_platform", init, "Acme X1"),
             mllog("submission_division", init, division),
             mllog("submission_status", init, "onprem"),
             mllog("submission_benchmark", init, benchmark),
             mllog("seed", init, seed),
             mllog("global_batch_size", init, 256),
             mllog("train_samples", init, 1_281_167),
             mllog("eval_samples", init, 50_000),
             mllog("init_stop", T0 - 1000),
             "ordinary output between the MLLOG lines",
             mllog("run_start", T0),
             mllog("epoch_start", T0 + 10, None, epoch_num=1),
             mllog("epoch_stop", T0 + 20, None, epoch_num=1),
             mllog("eval_start", T0 + 30, None, epoch_num=1),
             mllog("eval_accuracy", T0 + 40, accuracy, epoch_num=1),
             mllog("eval_stop", T0 + 50, None, epoch_num=1),
             mllog("run_stop", T0 + minutes * 60_000, None, status="success")]
    return "\n".join(lines) + "\n"
