"""`make mutate`: mutation testing (cosmic-ray) of the modules where a wrong number or a duplicate mail
costs most, each module's mutants judged by the fast unit tests that concern it only.

Why a copy: cosmic-ray rewrites the module on disk for each mutant; it works on a scratch copy of the
files git sees (``git ls-files``), so an interrupted run never leaves a mutant in the work tree. One
process (cosmic-ray's ``local`` distributor): the machine is shared. Results (one sqlite per module)
and a summary are kept in ``output/mutation/``.

    .venv/bin/python mutation/run.py [--cosmic-ray DIR] [MODULE-SUBSTRING ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "output" / "mutation"

#: module -> (the fast unit tests that concern it, the lines mutated or None for the whole module)
MODULES: dict[str, tuple[list[str], str | None]] = {  # in the order they run: the mail first, then the numbers
    "mlperf_report/mail/sendlog.py": (["tests/mail/test_send_log_rules.py"], None),
    "mlperf_report/mail/smtp.py": (["tests/mail/test_send_log_rules.py"], "classify"),
    "mlperf_report/suites/training/power.py": (["tests/suites/training/test_energy_rules.py"], None),
    "mlperf_report/suites/training/compliance.py": (["tests/suites/training/test_compliance_verdicts.py"], None),
    "mlperf_report/suites/training/scoring.py": (["tests/suites/training/test_scoring_rules.py"], None),
    "mlperf_report/suites/inference/validity.py": (["tests/suites/inference/test_inference_rules.py"], None),
    "mlperf_report/suites/inference/metrics.py": (["tests/suites/inference/test_inference_rules.py"], None),
    "mlperf_report/suites/inference/power.py": (["tests/suites/inference/test_inference_rules.py"], None),
}

#: operators left out everywhere: bitwise, shift, power, floor-division and modulo stand-ins for
#: arithmetic (and arithmetic for `|`/`&`), `is` for `==`, `~x`: in this code they either crash at
#: once or are equivalent, and they would multiply the run time by ~2
EXCLUDED_OPERATORS = [
    r"core/ReplaceBinaryOperator_.*_(BitXor|LShift|RShift|Pow|FloorDiv|Mod)$",
    r"core/ReplaceBinaryOperator_(BitXor|LShift|RShift|Pow|FloorDiv|Mod)_",
    r"core/ReplaceBinaryOperator_(Add|Sub|Mul|Div)_(BitOr|BitAnd)$",
    r"core/ReplaceBinaryOperator_(BitOr|BitAnd)_(Add|Sub|Mul|Div)$",
    r"core/ReplaceComparisonOperator_(Eq|NotEq)_(Is|IsNot)$",
    r"core/ReplaceComparisonOperator_(Is|IsNot)_(Eq|NotEq)$",
    r"core/ReplaceUnaryOperator_.*_Invert$",
]
TIMEOUT_S = 120.0


def function_lines(path: Path, name: str) -> str:
    """``first-last`` lines of a top-level function (the part of a module that is mutated)."""
    import ast

    node = next(n for n in ast.parse(path.read_text()).body if getattr(n, "name", None) == name)
    return f"{node.lineno}-{node.end_lineno}"


def config_text(module: str, tests: list[str], lines: str | None) -> str:
    command = (f"env PYTHONDONTWRITEBYTECODE=1 {sys.executable} -m pytest -x -q -p no:cacheprovider "
               f"-o addopts= {' '.join(tests)}")
    text = (f'[cosmic-ray]\nmodule-path = "{module}"\ntimeout = {TIMEOUT_S}\nexcluded-modules = []\n'
            f"test-command = {json.dumps(command)}\n\n[cosmic-ray.distributor]\nname = \"local\"\n\n"
            f"[cosmic-ray.filters.operators-filter]\nexclude-operators = {json.dumps(EXCLUDED_OPERATORS)}\n")
    if lines:
        text += f'\n[cosmic-ray.filters.line-filter.lines]\n"{module}" = ["{lines}"]\n'
    return text


def copy_tree(dest: Path) -> None:
    """The tracked and new (not ignored) files, as they are in the work tree, into ``dest``."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout
    for name in filter(None, names.decode().split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


def tally(cr: Path, db: Path) -> dict:
    """killed / survived / skipped counts and the survivors (line, operator) from a session."""
    dump = subprocess.run([str(cr / "cosmic-ray"), "dump", str(db)], check=True, capture_output=True, text=True)
    counts = {"killed": 0, "survived": 0, "skipped": 0, "incompetent": 0, "pending": 0}
    survivors = []
    for line in dump.stdout.splitlines():
        item, result = json.loads(line)
        mutation = item["mutations"][0]
        if result is None:
            counts["pending"] += 1
        elif result["worker_outcome"] == "skipped":
            counts["skipped"] += 1
        elif result["worker_outcome"] != "normal":  # a mutant that crashes or hangs the tests is caught
            counts["killed" if result["worker_outcome"] == "timeout" else "incompetent"] += 1
        elif result["test_outcome"] == "survived":
            counts["survived"] += 1
            survivors.append(f"line {mutation['start_pos'][0]}: {mutation['operator_name'].split('/')[-1]} "
                             f"(occurrence {mutation['occurrence']}, in {mutation['definition_name']})")
        else:
            counts["killed"] += 1
    counts["killed"] += counts.pop("incompetent")
    return {**counts, "survivors": sorted(survivors, key=lambda s: int(s.split()[1].rstrip(":")))}


def run_module(cr: Path, module: str, scratch: Path) -> dict:
    tests, function = MODULES[module]
    lines = function_lines(scratch / module, function) if function else None
    name = module.replace("mlperf_report/", "").replace("/", "_").removesuffix(".py")
    config, db = OUT / f"{name}.toml", OUT / f"{name}.sqlite"
    config.write_text(config_text(module, tests, lines))
    db.unlink(missing_ok=True)
    run = dict(cwd=scratch, check=True)
    subprocess.run([str(cr / "cosmic-ray"), "init", str(config), str(db)], **run)
    subprocess.run([str(cr / "cr-filter-operators"), str(db), str(config)], **run)
    if lines:
        subprocess.run([str(cr / "cr-filter-lines"), str(db), "--config", str(config)], **run)
    subprocess.run([str(cr / "cosmic-ray"), "baseline", str(config)], **run)
    subprocess.run([str(cr / "cosmic-ray"), "exec", str(config), str(db)], **run)
    return tally(cr, db)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cosmic-ray", default=str(ROOT / ".venv-mutate" / "bin"), help="where cosmic-ray's scripts are")
    parser.add_argument("modules", nargs="*", help="only the modules whose path contains one of these")
    args = parser.parse_args(argv)
    chosen = [m for m in MODULES if not args.modules or any(s in m for s in args.modules)]
    OUT.mkdir(parents=True, exist_ok=True)
    summary_path = OUT / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        scratch = Path(tmp)
        copy_tree(scratch)
        for module in chosen:
            result = run_module(Path(args.cosmic_ray).resolve(), module, scratch)
            summary[module] = result
            summary_path.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
            total = result["killed"] + result["survived"]
            print(f"{module}: {result['killed']} / {total} killed "
                  f"({100 * result['killed'] / max(total, 1):.0f} %), {result['skipped']} skipped by the filters",
                  flush=True)
            for survivor in result["survivors"]:
                print(f"  survived: {survivor}", flush=True)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
