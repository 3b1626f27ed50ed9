"""requirements.txt (pip) and environment.yml (conda) must pin the same packages at the same versions."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;#]+)$")


def _pins(lines):
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = PIN.match(line)
        assert match, f"not pinned with ==: {line!r}"
        pins[match.group(1).lower().replace("_", "-")] = match.group(2)
    return pins


def test_requirements_and_environment_pin_the_same_packages():
    pip_pins = _pins((ROOT / "requirements.txt").read_text().splitlines())
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert _pins(pip_section) == pip_pins


def test_no_jupyter_metapackage():
    pins = _pins((ROOT / "requirements.txt").read_text().splitlines())
    assert "jupyter" not in pins and "notebook" not in pins and "jupyterlab" not in pins


def test_lean_jupyter_install_has_no_rfc3987_syntax():
    """jsonschema[format-nongpl] (pulled by the jupyter metapackage) brings rfc3987-syntax, ~1.9 s per import."""
    from importlib import metadata

    installed = {dist.metadata["Name"].lower() for dist in metadata.distributions()}
    assert "rfc3987-syntax" not in installed and "jupyter" not in installed


def _locked(text):
    """requirements.lock's pins, each with the number of hashes it carries."""
    pins, current = {}, None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not line.startswith(" "):
            match = PIN.match(stripped.split(";")[0].rstrip(" \\"))
            assert match, f"not pinned with ==: {line!r}"
            current = match.group(1).lower().replace("_", "-")
            pins[current] = [match.group(2), 0]
        elif stripped.startswith("--hash=sha256:"):
            pins[current][1] += 1
    return pins


def test_the_lock_pins_every_direct_dependency_at_its_version_with_hashes():
    """make venv installs requirements.lock with --require-hashes (uv or pip): a direct pin the lock
    does not carry, at another version or without a hash would fail there or install something else."""
    locked = _locked((ROOT / "requirements.lock").read_text())
    direct = _pins((ROOT / "requirements.txt").read_text().splitlines())
    assert {name: locked.get(name, [None])[0] for name in direct} == direct, "run `make lock`"
    assert all(count >= 1 for _, count in locked.values())
    assert len(locked) > len(direct)  # the packages they pull in are pinned too


def test_uv_is_pinned_with_hashes():
    locked = _locked((ROOT / "requirements-bootstrap.txt").read_text())
    assert list(locked) == ["uv"] and locked["uv"][1] >= 1
