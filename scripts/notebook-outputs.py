#!/usr/bin/python3
"""Keeps the committed notebooks' outputs current (scripts/run-notebooks.sh runs it).

  notebook-outputs.py check  COMMITTED_DIR EXECUTED_DIR
      fails unless each code cell of each committed notebook holds the outputs the
      fresh execution in EXECUTED_DIR gave it: the same text (printed lines, values,
      tables, errors) and images of the same kinds (a chart's PNG bytes follow the
      installed fonts and matplotlib; its numbers come from the text beside it).
  notebook-outputs.py update COMMITTED_DIR EXECUTED_DIR
      writes the executed notebooks over the committed ones (the notebooks are
      allocsim's own files; nothing else is written).
"""
import json
import shutil
import sys
from pathlib import Path

TEXT_KINDS = ("text/plain", "text/html", "text/markdown", "text/latex")


def code_cells(path):
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def text_of(output):
    """What a reader reads in one output: its kind and its text."""
    kind = output["output_type"]
    if kind == "stream":
        return (kind, output["name"], "".join(output["text"]))
    if kind == "error":
        return (kind, output["ename"], output["evalue"])
    data = output.get("data", {})
    texts = tuple("".join(data[m]) for m in TEXT_KINDS if m in data)
    images = tuple(sorted(m for m in data if m.startswith("image/")))
    return (kind, texts, images)


def check(committed_dir, executed_dir):
    problems = []
    for committed in sorted(committed_dir.glob("*.ipynb")):
        executed = executed_dir / committed.name
        if not executed.is_file():
            problems.append(f"{committed}: not executed (no {executed})")
            continue
        kept_cells, fresh_cells = code_cells(committed), code_cells(executed)
        if len(kept_cells) != len(fresh_cells):
            problems.append(f"{committed}: {len(kept_cells)} code cells, the executed copy {len(fresh_cells)}")
            continue
        for number, (kept, fresh) in enumerate(zip(kept_cells, fresh_cells), start=1):
            kept_texts = [text_of(o) for o in kept.get("outputs", [])]
            fresh_texts = [text_of(o) for o in fresh.get("outputs", [])]
            if kept_texts == fresh_texts:
                continue
            if not kept_texts:
                problems.append(f"{committed}: code cell {number} is committed without its outputs")
            else:
                problems.append(f"{committed}: code cell {number}'s outputs differ from a fresh run's")
    for line in problems:
        print("notebook-outputs:", line, file=sys.stderr)
    if problems:
        print("notebook-outputs: run scripts/run-notebooks.sh --update and commit the notebooks", file=sys.stderr)
    return 1 if problems else 0


def update(committed_dir, executed_dir):
    for committed in sorted(committed_dir.glob("*.ipynb")):
        shutil.copyfile(executed_dir / committed.name, committed)
        print(f"notebook-outputs: wrote {committed}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "update"):
        print("usage: notebook-outputs.py check|update COMMITTED_DIR EXECUTED_DIR", file=sys.stderr)
        sys.exit(2)
    action = check if sys.argv[1] == "check" else update
    sys.exit(action(Path(sys.argv[2]), Path(sys.argv[3])))
