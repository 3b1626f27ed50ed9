"""Compiled templates kept on disk: found again by another process, never stale after an edit, never
shared between environments whose options compile a template differently."""

from __future__ import annotations

import subprocess
import sys

from mlperf_report.core import jinja_env, paths


def test_an_edited_template_is_compiled_again(tmp_path):
    (tmp_path / "page.j2").write_text("first {{ x }}")
    assert jinja_env.environment(tmp_path).get_template("page.j2").render(x=1) == "first 1"
    (tmp_path / "page.j2").write_text("second {{ x }}")
    assert jinja_env.environment(tmp_path).get_template("page.j2").render(x=2) == "second 2"


def test_a_new_environment_loads_what_an_earlier_one_compiled(tmp_path, monkeypatch):
    (tmp_path / "page.j2").write_text("{% for i in range(3) %}{{ i }}{% endfor %}")
    assert jinja_env.environment(tmp_path).get_template("page.j2").render() == "012"
    again = jinja_env.environment(tmp_path)
    monkeypatch.setattr(again, "compile", lambda *a, **k: (_ for _ in ()).throw(AssertionError("compiled again")))
    assert again.get_template("page.j2").render() == "012"


def test_environments_with_other_options_keep_their_own_compiled_templates(tmp_path):
    (tmp_path / "page.j2").write_text("{% if true %}\n  x\n{% endif %}\n")
    plain = jinja_env.environment(tmp_path).get_template("page.j2").render()
    trimmed = jinja_env.environment(tmp_path, trim_blocks=True, lstrip_blocks=True).get_template("page.j2").render()
    assert plain != trimmed and trimmed == "  x\n"
    assert jinja_env.environment(tmp_path).get_template("page.j2").render() == plain


def test_the_project_s_environments_find_their_cache_from_any_process():
    """Options such as a function (the narrative's autoescape) name the same folder in every process,
    not one per memory address."""
    probe = ("from mlperf_report.narrative import rendering; from mlperf_report.assemble import page; "
             "print(rendering.environment().bytecode_cache.directory); print(page._jinja().bytecode_cache.directory)")
    folders = [subprocess.run([sys.executable, "-c", probe], cwd=paths.ROOT, capture_output=True, text=True,
                              check=True).stdout.split() for _ in range(2)]
    assert folders[0] == folders[1] and len(set(folders[0])) == 2
    assert all(folder.startswith(str(paths.CACHE / "jinja")) for folder in folders[0])


def test_make_venv_compiles_every_template_of_the_project():
    """`make venv`'s step: afterwards the narrative's and the page's templates load without compiling."""
    done = subprocess.run([sys.executable, "-m", "mlperf_report.assemble.compile_templates"], cwd=paths.ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    templates = len(list(paths.TEMPLATES.glob("*.j2")))  # each of the two environments compiles them all
    assert f"{2 * templates} templates compiled" in done.stdout
    from mlperf_report.assemble import page
    from mlperf_report.narrative import rendering

    for env, name in ((rendering.environment(), "narrative.en.html.j2"), (page._jinja(), "report.html.j2")):
        assert list((paths.CACHE / "jinja").glob(f"{env.bytecode_cache.directory.rsplit('/', 1)[-1]}/*.cache"))
        env.get_template(name)  # loads
