"""`rtoslab merge A.json B.json ... -o OUT.json`: the result files of the shards of one command
(`rtoslab run --shard i/N`, shard.py) joined into one result file, as if the command had run
whole: the runs in the command's order.

Refused, one line and status 2 (nothing written): a cell (rtos@board/profile) in two files (the
same shard twice, or overlapping runs), a cell of a shard's matrix in none of the files (a
shard missing, or cut short), shard files of one split that disagree on the matrix. Files
without a shard record (plain runs) are joined too, after the shards' cells; only overlap is
checked for them.
"""
from __future__ import annotations

import uuid
from datetime import datetime, timezone
from pathlib import Path

from . import results as res
from .errors import BadInput
from .shard import assign, cell_key


def run_cell(run: dict) -> str:
    profile = run.get("profile") or (run.get("manifest") or {}).get("profile") or "size"
    return cell_key(run["rtos"], run["board"], profile)


def merge(paths: list[Path]) -> dict:
    """The merged document (BadInput for overlap, a missing cell or mismatched shards)."""
    if not paths:
        raise BadInput("merge: name the result files to join")
    docs = [(p, res.load(p)) for p in paths]
    where: dict[str, Path] = {}
    runs: dict[str, dict] = {}
    splits: dict[tuple, dict[int, Path]] = {}      # (count, matrix) -> index -> file
    for p, doc in docs:
        for run in doc["runs"]:
            key = run_cell(run)
            if key in where:
                raise BadInput(f"merge: {key} is in both {where[key]} and {p} (overlapping shards)")
            where[key], runs[key] = p, run
        sh = doc.get("shard")
        if sh is not None:
            _check_record(sh, p)
            split = splits.setdefault((sh["count"], tuple(sh["matrix"])), {})
            if sh["index"] in split:
                raise BadInput(f"merge: shard {sh['index']}/{sh['count']} given twice "
                               f"({split[sh['index']]} and {p})")
            split[sh["index"]] = p
    _check_splits(splits)
    order: list[str] = []
    for (_count, matrix) in splits:
        order += [k for k in matrix if k not in order]
    for (count, matrix), files in splits.items():
        for key in matrix:
            if key not in runs:
                i = assign(list(matrix), count)[key]
                why = (f"shard {i}/{count} has no file" if i not in files
                       else f"not in {files[i]}, its shard {i}/{count}")
                raise BadInput(f"merge: cell {key} is missing ({why})")
    order += [k for k in runs if k not in order]
    first = docs[0][1]
    out = res.new_document(first.get("tool", {}).get("git"))
    out["tool"] = dict(first.get("tool", out["tool"]))
    out["run_id"] = uuid.uuid4().hex
    out["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    out["command"] = first.get("command", "")
    out["merged_from"] = [str(p) for p, _ in docs]
    if any(d.get("interrupted") for _, d in docs):
        out["interrupted"] = True
    out["runs"] = [runs[k] for k in order]
    return out


def _check_record(sh, p: Path) -> None:
    ok = (isinstance(sh, dict) and isinstance(sh.get("index"), int) and isinstance(sh.get("count"), int)
          and 1 <= sh["index"] <= sh["count"] and isinstance(sh.get("matrix"), list)
          and all(isinstance(k, str) for k in sh["matrix"]))
    if not ok:
        raise BadInput(f"merge: {p}: its shard record is malformed (index, count, matrix)")


def _check_splits(splits: dict) -> None:
    """Shard files of one count must name the same matrix: else they come from different
    commands, and the one missing cell cannot be told."""
    by_count: dict[int, tuple] = {}
    for count, matrix in splits:
        if count in by_count and by_count[count] != matrix and set(by_count[count]) & set(matrix):
            raise BadInput(f"merge: shard files of N={count} name different matrices "
                           "(shards of different commands)")
        by_count.setdefault(count, matrix)


def execute(paths: list[str], out_path: str) -> Path:
    doc = merge([Path(p) for p in paths])
    return res.write(doc, out_path)
