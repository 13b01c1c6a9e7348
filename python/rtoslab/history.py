"""`rtoslab history`: every run in SQLite, so a metric can be followed over commits.

`rtoslab run` records each result file it writes (unless --no-history); `rtoslab history --add
FILE...` imports result files; `rtoslab history` lists the runs; `rtoslab history METRIC` shows
one metric (or `size.flash.kernel`-style size key) over the recorded runs, oldest first.
"""
from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from . import manifest as mf
from . import results as res
from .errors import BadInput

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recorded TEXT NOT NULL, created TEXT, git TEXT, commit_time TEXT, source TEXT,
  rtos TEXT NOT NULL, board TEXT NOT NULL, rtos_version TEXT, toolchain TEXT,
  status TEXT, clock_hz INTEGER, run_id TEXT
);
CREATE TABLE IF NOT EXISTS metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  id TEXT NOT NULL, unit TEXT, n INTEGER,
  min REAL, p50 REAL, mean REAL, p99 REAL, max REAL, stdev REAL,
  PRIMARY KEY (run_id, id)
);
CREATE TABLE IF NOT EXISTS sizes (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL, value INTEGER, PRIMARY KEY (run_id, key)
);
CREATE TABLE IF NOT EXISTS checks (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  id TEXT NOT NULL, passed INTEGER, PRIMARY KEY (run_id, id)
);
"""
# A run is one row per RTOS@board of a result file, keyed by the file's run id: the same file
# recorded twice (by `run`, then `history --add` under another path) is one row, and two runs
# alike in everything else (started in the same second) are two.
KEY = "CREATE UNIQUE INDEX IF NOT EXISTS runs_by_run_id ON runs (run_id, rtos, board)"
STATS = ("min", "p50", "mean", "p99", "max", "stdev")


def run_id(doc: dict) -> str:
    """The document's run id; a file written before run ids (no `run_id`) gets one from what it
    holds, so that it too is recorded once wherever it lies."""
    if isinstance(doc.get("run_id"), str) and doc["run_id"]:
        return doc["run_id"]
    import hashlib
    import json
    what = [doc.get("created"), doc.get("tool"), doc.get("command"),
            [(r["rtos"], r["board"], [(m["id"], m["p50"], m.get("n")) for m in r["results"]]) for r in doc["runs"]]]
    return "content-" + hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:24]


def default_db() -> Path:
    env = os.environ.get("RTOSLAB_HISTORY")
    if env:
        return Path(env)
    from .run import results_dir
    return results_dir(mf.repo_root()) / "history.sqlite"


def connect(path: Path, create: bool = True) -> sqlite3.Connection:
    path = Path(path)
    if not create and not path.exists():
        raise BadInput(f"{path}: no history yet (rtoslab run records one, or rtoslab history --add)")
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not a history database")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path), timeout=30)
        db.execute("PRAGMA foreign_keys = ON")
        db.executescript(SCHEMA)
        if "run_id" not in [c[1] for c in db.execute("PRAGMA table_info(runs)")]:
            db.execute("ALTER TABLE runs ADD COLUMN run_id TEXT")    # a database of before run ids
        db.execute(KEY)
        return db
    except sqlite3.DatabaseError as e:
        if not existed:
            _remove_new(path)
        raise BadInput(f"{path}: {_db_problem(e)}") from None
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None


def _db_problem(e: sqlite3.DatabaseError) -> str:
    text = str(e)
    if "full" in text or "disk I/O" in text or "readonly" in text or "unable to open" in text:
        return f"cannot write: {text}"
    return f"not an rtoslab history database ({text})"


def _remove_new(path: Path) -> None:
    """A database this command created and could not fill: no empty file left behind."""
    for p in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
        try:
            p.unlink()
        except OSError:
            pass


def record(path: Path, doc: dict, source: str) -> int:
    """Add every run of a result document; returns how many were new."""
    existed = Path(path).exists() and Path(path).stat().st_size > 0
    db = connect(path)
    key = run_id(doc)
    source = str(Path(source).resolve())
    git = doc.get("tool", {}).get("git", "unknown")
    created = doc.get("created") or ""
    commit_time = mf.git_commit_time() if git != "unknown" and git == mf.git_revision() else None
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    added = 0
    try:
        with db:
            for run in doc["runs"]:
                cur = db.execute(
                    "INSERT OR IGNORE INTO runs (recorded, created, git, commit_time, source, rtos, board,"
                    " rtos_version, toolchain, status, clock_hz, run_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (now, created, git, commit_time, source, run["rtos"], run["board"],
                     run.get("rtos_version"), run.get("toolchain"), run.get("status", "complete"),
                     run.get("clock_hz"), key))
                if cur.rowcount == 0:
                    continue
                rid = cur.lastrowid
                added += 1
                db.executemany(
                    "INSERT OR REPLACE INTO metrics VALUES (?,?,?,?,?,?,?,?,?,?)",
                    [(rid, r["id"], r.get("unit"), r.get("n"), *[r[k] for k in STATS]) for r in run["results"]])
                db.executemany("INSERT OR REPLACE INTO sizes VALUES (?,?,?)",
                               [(rid, k, v) for k, v in run.get("size", {}).items() if isinstance(v, (int, float))])
                db.executemany("INSERT OR REPLACE INTO checks VALUES (?,?,?)",
                               [(rid, c["id"], int(bool(c.get("passed")))) for c in run.get("checks", [])])
    except sqlite3.DatabaseError as e:
        db.close()
        if not existed:
            _remove_new(Path(path))
        raise BadInput(f"{path}: cannot record: {_db_problem(e)}") from None
    db.close()
    return added


def series(path: Path, metric: str, rtos: str | None, board: str | None, stat: str) -> list[dict]:
    if stat not in STATS:
        raise BadInput(f"--stat {stat}: one of {', '.join(STATS)}")
    db = connect(path, create=False)
    try:
        where, args = [], []
        if rtos:
            where.append("r.rtos = ?")
            args.append(rtos)
        if board:
            where.append("r.board = ?")
            args.append(board)
        w = (" AND " + " AND ".join(where)) if where else ""
        if metric.startswith("size."):
            q = (f"SELECT r.id, r.created, r.git, r.rtos, r.board, s.value FROM runs r JOIN sizes s "
                 f"ON s.run_id = r.id WHERE s.key = ?{w} ORDER BY r.created, r.id")
            rows = db.execute(q, [metric[5:], *args]).fetchall()
        else:
            q = (f"SELECT r.id, r.created, r.git, r.rtos, r.board, m.{stat} FROM runs r JOIN metrics m "
                 f"ON m.run_id = r.id WHERE m.id = ?{w} ORDER BY r.created, r.id")
            rows = db.execute(q, [metric, *args]).fetchall()
    except sqlite3.DatabaseError as e:
        raise BadInput(f"{path}: not an rtoslab history database ({e})") from None
    finally:
        db.close()
    return [dict(zip(("run", "created", "git", "rtos", "board", "value"), r)) for r in rows]


def list_runs(path: Path, rtos=None, board=None, limit: int = 50) -> list[dict]:
    db = connect(path, create=False)
    try:
        where, args = [], []
        if rtos:
            where.append("rtos = ?")
            args.append(rtos)
        if board:
            where.append("board = ?")
            args.append(board)
        w = ("WHERE " + " AND ".join(where)) if where else ""
        rows = db.execute(
            f"SELECT id, created, git, rtos, board, rtos_version, status, "
            f"(SELECT COUNT(*) FROM metrics m WHERE m.run_id = runs.id) FROM runs {w} "
            f"ORDER BY created DESC, id DESC LIMIT ?", [*args, limit]).fetchall()
    except sqlite3.DatabaseError as e:
        raise BadInput(f"{path}: not an rtoslab history database ({e})") from None
    finally:
        db.close()
    keys = ("run", "created", "git", "rtos", "board", "rtos_version", "status", "metrics")
    return [dict(zip(keys, r)) for r in rows]


def _short(git: str | None) -> str:
    if not git or git == "unknown":
        return "unknown"
    return git[:10] + ("-dirty" if git.endswith("-dirty") else "")


def execute(db_path: Path, metric: str | None, add: tuple, rtos, board, stat, limit, out: Console):
    for f in add:
        doc = res.load(f)
        n = record(db_path, doc, str(Path(f).resolve()))
        out.print(f"{f}: {n} run(s) added to {db_path}", highlight=False)
    if add and not metric:
        return
    if metric is None:
        rows = list_runs(db_path, rtos, board, limit)
        t = Table(box=box.SIMPLE_HEAD, title=f"runs in {db_path}", title_justify="left")
        for c in ("run", "created", "git", "rtos", "board", "version", "status", "metrics"):
            t.add_column(c, no_wrap=True)
        for r in rows:
            t.add_row(str(r["run"]), r["created"] or "", _short(r["git"]), r["rtos"], r["board"],
                      r["rtos_version"] or "", r["status"] or "", str(r["metrics"]))
        out.print(t)
        return rows
    rows = series(db_path, metric, rtos, board, stat)
    if not rows:
        from .ids import METRIC_IDS, metric_did_you_mean
        hint = "" if metric in METRIC_IDS else metric_did_you_mean(metric)
        raise BadInput(f"no recorded value of {metric} in {db_path}"
                       + (f" for {rtos}" if rtos else "") + (f" on {board}" if board else "") + hint)
    t = Table(box=box.SIMPLE_HEAD, title=f"{metric} ({stat}) over the recorded runs", title_justify="left")
    for c in ("run", "created", "git", "rtos", "board", stat, "change"):
        t.add_column(c, justify="right" if c in (stat, "change") else "left", no_wrap=True)
    prev: dict = {}
    for r in rows[-limit:] if limit else rows:
        k = (r["rtos"], r["board"])
        ch = ""
        if k in prev and prev[k]:
            ch = f"{(r['value'] - prev[k]) / prev[k] * 100:+.2f}%"
        prev[k] = r["value"]
        v = r["value"]
        t.add_row(str(r["run"]), r["created"] or "", _short(r["git"]), r["rtos"], r["board"],
                  f"{v:g}" if isinstance(v, float) else str(v), ch)
    out.print(t)
    return rows
