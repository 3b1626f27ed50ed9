"""Writing a round's tidy tables: CSV without an index, JSON manifest, all renamed into place together."""

from __future__ import annotations

import json
from pathlib import Path

from mlperf_report.core.atomic import write_texts


def write_tables(frames: dict, manifest: dict, out_dir: Path) -> list[Path]:
    """Write ``{name: DataFrame}`` as CSV plus ``manifest.json``: temporary names first, then renamed
    together, so a reader never sees tables of two ingests mixed."""
    texts = {name: frame.to_csv(index=False, lineterminator="\n") for name, frame in frames.items()}
    texts["manifest.json"] = json.dumps(manifest, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
    # JSON may spell lone surrogates ("\ud800"), which UTF-8 cannot hold: written as "?"
    return write_texts({Path(out_dir) / name: text.encode("utf-8", "replace").decode("utf-8")
                        for name, text in texts.items()})
