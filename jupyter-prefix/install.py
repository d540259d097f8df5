"""Merge the course's Jupyter settings into an environment's prefix (default: this Python's).

    python jupyter-prefix/install.py            # make venv and make lab (.venv's python), Binder's postBuild

Each JSON file under jupyter-prefix/ (``etc/…``, ``share/…``) is merged key by key into the file
of the same path under the prefix, so settings already there (an image's own) are kept and ours
win where both set a key. Why ``etc/jupyter/jupyter_server_config.json`` and not a file in
``jupyter_server_config.d/``: jupyter-server 2 reads that folder only for which extensions to
enable, so a kernel allow-list there is silently ignored (measured: the Launcher still offered two).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def merged(old: dict, new: dict) -> dict:
    """``old`` with ``new`` laid over it, nested dicts merged rather than replaced."""
    out = dict(old)
    for key, value in new.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def install(prefix: Path) -> list[Path]:
    written = []
    for source in sorted(HERE.rglob("*.json")):
        target = prefix / source.relative_to(HERE)
        old = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(merged(old, json.loads(source.read_text(encoding="utf-8"))), indent=2) + "\n",
                          encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":
    for path in install(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.prefix)):
        print(f"jupyter settings: {path}")
