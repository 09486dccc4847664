"""Several processes share one cache home; some are killed with SIGKILL at random points.

Each writer process puts random paper versions (all tiers, small bounds so eviction is busy,
frequent journal compaction) and, only after a put returns, appends a line to its own log. The
cache's eviction messages go to a per-process log too. Afterwards a fresh Cache must load, hold
only whole and correct files, keep its bounds, and hold every completed write unless an eviction
of it was logged after the write began.

Each writer also pins a few papers in its own session, and a killed writer's session stays
open (nothing ends it), so pins add up over the rounds. A killed writer pins one paper, so
that all the rounds' pins together stay well under MAX_PAPERS: were pins to fill the cache, a
put would be refused (CacheFull, correctly) and the writer would stop on its own instead of
being killed. A writer's stderr goes to a file shown on any failure.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from tests import platforms

REPO = Path(__file__).resolve().parent.parent
MAX_PAPERS = 20
MAX_BYTES = 90_000
KILL_ROUNDS = 8
assert KILL_ROUNDS <= MAX_PAPERS // 2, "the killed writers' pins (one each) must leave room to evict"

WRITER = textwrap.dedent(
    """
    import hashlib, json, logging, os, random, sys, time
    from pathlib import Path

    from arxiv_mcp.cache import index as cache_index
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.ids import PaperId

    home, logs, writer, seed, ops = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    pins = int(sys.argv[8])
    cache_index.COMPACT_MIN_BYTES = 2048  # compact often, so kills also land inside compactions

    handler = logging.FileHandler(logs / f"evictions-{writer}.log")
    handler.setFormatter(logging.Formatter("%(created).6f %(message)s"))
    logging.getLogger("arxiv_mcp.cache.ledger").addHandler(handler)
    logging.getLogger("arxiv_mcp.cache.ledger").setLevel(logging.INFO)
    done = os.open(logs / f"done-{writer}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def record(**fields):
        os.write(done, (json.dumps(fields) + "\\n").encode())

    def sealed(body: bytes) -> bytes:
        return body + hashlib.sha256(body).hexdigest().encode()

    def whole(data) -> bool:
        if isinstance(data, str):
            data = data.encode()
        return hashlib.sha256(data[:-64]).hexdigest().encode() == data[-64:]

    cache = Cache(home, max_papers=int(sys.argv[6]), max_bytes=int(sys.argv[7]))
    session = cache.start_session(f"w{writer}").session_id
    rng = random.Random(seed)
    for seq in range(ops):
        tag = f"{writer}:{seed}:{seq}"
        if seq % 100 == 0 and seq // 100 < pins:
            paper_id, version = f"2404.{seed % 1000:03d}{seq // 100:02d}", 1
            cache.pin(session, PaperId(paper_id, version))
            cache.put_meta(PaperId(paper_id, version), {"title": tag, "check": tag}, latest=True)
            record(op="pin", key=f"{paper_id}v{version}", session=session)
            continue
        paper_id, version = f"2403.{rng.randrange(30):05d}", rng.randint(1, 2)
        tier = rng.choice(["meta", "text", "text", "pdf", "source"])
        started = time.time()
        if tier == "meta":
            cache.put_meta(PaperId(paper_id, version), {"title": tag, "check": tag, "pad": "m" * rng.randrange(400)}, latest=rng.random() < 0.5)
        elif tier == "text":
            body = (tag + "|" + "t" * rng.randrange(200, 6000)).encode()
            cache.put_text(PaperId(paper_id, version), sealed(body).decode(), method="html", extractor_version=1)
        else:
            head = b"%PDF-1.5 " if tier == "pdf" else b"\\x1f\\x8b\\x08 "
            body = head + tag.encode() + rng.randbytes(rng.randrange(1000, 15000))
            cache.put_raw(PaperId(paper_id, version), tier, sealed(body), "application/octet-stream")
        record(op="put", key=f"{paper_id}v{version}", tier=tier, start=started)
        probe, probe_version = f"2403.{rng.randrange(30):05d}", rng.randint(1, 2)
        text = cache.get_text(PaperId(probe, probe_version))
        raw = cache.get_raw(PaperId(probe, probe_version), "pdf")
        try:
            raw_data = raw.path.read_bytes() if raw else None
        except FileNotFoundError:  # evicted by another process since: allowed
            raw_data = None
        if (text and not whole(text.text)) or (raw_data and not whole(raw_data)):
            record(op="torn", key=f"{probe}v{probe_version}")
    record(op="finished")
    """
)

EVICTION = re.compile(r"(?P<at>\d+\.\d+) evicting (?P<key>\S+) tiers=(?P<tiers>\S+) \((?P<reason>.*)\)")


class EvictionLog(logging.Handler):
    """Collects the verifying process's own eviction messages in the writers' format."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.created:.6f} {record.getMessage()}")


def start_writer(script: Path, home: Path, logs: Path, writer: str, seed: int, ops: int, pins: int) -> subprocess.Popen:
    """Start a writer that pins a paper every 100 operations, `pins` at most; its stderr goes
    to logs/stderr-<writer>.log (see `stderr_of`)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    args = [
        sys.executable,
        str(script),
        str(home),
        str(logs),
        writer,
        str(seed),
        str(ops),
        str(MAX_PAPERS),
        str(MAX_BYTES),
        str(pins),
    ]
    with open(logs / f"stderr-{writer}.log", "wb") as stderr:
        return subprocess.Popen(args, env=env, stderr=stderr)


def stderr_of(logs: Path, writer: str) -> str:
    return (logs / f"stderr-{writer}.log").read_text(errors="replace")[-4000:]


def lines(path: Path) -> list[dict]:
    """Whole lines of a log (a killed writer may leave half a line at the end)."""
    if not path.exists():
        return []
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if line.endswith("\n")
    ]


def wait_for_progress(process: subprocess.Popen, path: Path, count: int, timeout: float = 60.0) -> None:
    """Wait until the writer logged `count` lines; it must still be running then."""
    deadline = time.monotonic() + timeout
    while len(lines(path)) < count:
        assert process.poll() is None, f"writer ended on its own ({process.returncode}) before the kill"
        assert time.monotonic() < deadline, f"writer made no progress: {path}"
        time.sleep(0.01)


def open_and_check(home: Path, logs: Path) -> Cache:
    """Open the cache as a restarted server would and check every promise about its state."""
    own = EvictionLog()
    logger = logging.getLogger("arxiv_mcp.cache.ledger")
    logger.addHandler(own)
    previous_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        cache = Cache(home, max_papers=MAX_PAPERS, max_bytes=MAX_BYTES)
        cache.versions(PaperId("2403.00001"))  # the first call loads, recovers and applies the bounds
    finally:
        logger.removeHandler(own)
        logger.setLevel(previous_level)

    assert cache.verify() == [], "every indexed file exists with its recorded size and parses"
    stats = cache.stats()
    assert stats.papers <= MAX_PAPERS and stats.bytes <= MAX_BYTES, stats
    assert os.listdir(home / "tmp") == [], "temporary files of killed writers are cleaned"

    with open(logs / "evictions-verifier.log", "a") as kept:  # later rounds must see these evictions too
        kept.writelines(line + "\n" for line in own.lines)
    evictions: dict[tuple[str, str], list[float]] = {}
    for line in (line for log in logs.glob("evictions-*.log") for line in log.read_text(encoding="utf-8").splitlines()):
        match = EVICTION.fullmatch(line)
        if match:
            tiers = ["meta", "text", "pdf", "source"] if match["tiers"] == "all" else match["tiers"].split(",")
            for tier in tiers:
                evictions.setdefault((match["key"], tier), []).append(float(match["at"]))

    present = {f"{item.paper_id}v{item.version}": item for item in cache.list_cached()}
    done = [entry for log in logs.glob("done-*.log") for entry in lines(log)]
    assert not [entry for entry in done if entry["op"] == "torn"], "no reader saw a torn file"
    for entry in done:
        if entry["op"] == "pin":
            assert "meta" in present[entry["key"]].tiers, f"pinned {entry['key']} was lost"
            assert entry["session"] in present[entry["key"]].pinned_by, "a pin update was lost"
        elif entry["op"] == "put" and (entry["key"] not in present or entry["tier"] not in present[entry["key"]].tiers):
            later = [at for at in evictions.get((entry["key"], entry["tier"]), []) if at >= entry["start"]]
            assert later, f"completed write {entry} is gone without an eviction"

    for _paper_id, _version, meta, text in cache.iter_documents():
        assert meta is None or meta["check"] == meta["title"]
        assert text is None or _sealed(text.encode())
    for item in present.values():
        for kind in ("pdf", "source"):
            raw = cache.get_raw(PaperId(item.paper_id, item.version), kind)
            assert raw is None or _sealed(raw.path.read_bytes())
    return cache


def _sealed(data: bytes) -> bool:
    import hashlib

    return hashlib.sha256(data[:-64]).hexdigest().encode() == data[-64:]


@pytest.fixture
def room(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The cache home the writers share, the folder of their logs, and the writer script."""
    logs = tmp_path / "logs"
    logs.mkdir()
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    return tmp_path / "home", logs, script


@platforms.posix_signals
def test_three_processes_share_a_home_while_one_is_killed(room):
    home, logs, script = room
    Cache(home, max_papers=MAX_PAPERS, max_bytes=MAX_BYTES).close()
    writers = [start_writer(script, home, logs, str(n), seed=n + 1, ops=300, pins=3) for n in range(3)]
    wait_for_progress(writers[0], logs / "done-0.log", 60)
    writers[0].send_signal(signal.SIGKILL)
    assert writers[0].wait() == -signal.SIGKILL, stderr_of(logs, "0")
    for n, writer in enumerate(writers[1:], 1):
        assert writer.wait(timeout=120) == 0, stderr_of(logs, str(n))
    for n in (1, 2):
        assert lines(logs / f"done-{n}.log")[-1] == {"op": "finished"}
    cache = open_and_check(home, logs)
    assert {"w0", "w1", "w2"} <= {pinner for item in cache.list_cached() for pinner in item.pinned_by}


@platforms.posix_signals
def test_a_writer_killed_at_random_points_never_damages_the_cache(room):
    home, logs, script = room
    rng = random.Random(7)
    for round_ in range(KILL_ROUNDS):
        writer = start_writer(script, home, logs, f"r{round_}", seed=100 + round_, ops=10_000, pins=1)
        wait_for_progress(writer, logs / f"done-r{round_}.log", 1)
        time.sleep(rng.uniform(0.0, 0.4))
        writer.send_signal(signal.SIGKILL)
        assert writer.wait() == -signal.SIGKILL, f"the writer ended on its own: {stderr_of(logs, f'r{round_}')}"
        open_and_check(home, logs).close()
