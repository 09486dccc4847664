"""The cache's file handling under Windows' rules, through the `osfiles.Files` seam, on Linux.

Windows refuses to replace or remove a file that is open (Python opens without delete
sharing) and cannot `os.open` a directory. `windows_rules` makes this machine refuse the
same way (an open descriptor is found through /proc/self/fd: those tests need Linux), and the cache then runs with
`WindowsFiles` as `osfiles.FILES`: two caches on one home (two processes' worth of open files)
write, read, pin, compact and evict without a refusal reaching them. With `PosixFiles`, which
keeps files open across a replace, the same rules refuse: the check can fail.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

import pytest

from arxiv_mcp import errors
from arxiv_mcp.cache import index as cache_index
from arxiv_mcp.cache import osfiles
from arxiv_mcp.cache import tiers as cache_tiers
from arxiv_mcp.cache.atomic import TMP_SUFFIX, clean_stale_tmp, write_atomic
from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from tests import platforms


def _open_paths() -> set[str]:
    paths = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            paths.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return paths


@pytest.fixture
def windows_rules(monkeypatch, tmp_path):
    """os.replace/os.unlink refuse a file under tmp_path that is open, and os.open refuses a
    directory, as Windows does; returns the replaces and removals refused."""
    refused: list[str] = []
    real_replace, real_unlink = os.replace, os.unlink
    root = str(tmp_path.resolve())

    def check(*paths):
        open_now = _open_paths()
        for path in paths:
            full = os.path.realpath(path)
            if full.startswith(root) and full in open_now:
                refused.append(full)
                raise PermissionError(errno.EACCES, "The process cannot access the file", str(path))

    def replace(source, target, **kw):
        check(source, target)
        real_replace(source, target, **kw)

    def unlink(path, **kw):
        check(path)
        real_unlink(path, **kw)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(os, "open", windows_open)
    return refused


_real_open = os.open


def windows_open(path, flags, mode=0o777, **kw):
    """os.open as on Windows: a directory cannot be opened."""
    if os.path.isdir(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))
    return _real_open(path, flags, mode, **kw)


def stand_in_windows(exit_codes: dict[int, int] | None = None) -> osfiles.WindowsFiles:
    """WindowsFiles with `exit_codes` (pid -> exit code) standing in for the kernel's answer."""
    codes = exit_codes or {}
    return osfiles.WindowsFiles(lambda pid: codes.get(pid), sleep=lambda seconds: None)


def _two_processes_at_work(home: Path, monkeypatch, *, compacting: bool = True) -> None:
    """What two processes sharing a cache do: each keeps its Cache open across the other's
    calls, one rewrites a file the other has just looked up, and every lock hold compacts
    the journal (so it is replaced under the other's eyes)."""
    if compacting:
        monkeypatch.setattr(cache_index.JournaledIndex, "compact_if_long", cache_index.JournaledIndex.compact)
    first, second = Cache(home), Cache(home)
    read_whole = cache_tiers.TierFiles._read_whole

    def read_after_the_other_wrote(self, opened, key, tier, decode):
        if self is second.tiers and tier == "meta":
            first.put_meta(PaperId(key[0], key[1]), {"title": "Rewritten"}, latest=True)
        return read_whole(self, opened, key, tier, decode)

    monkeypatch.setattr(cache_tiers.TierFiles, "_read_whole", read_after_the_other_wrote)
    try:
        first.put_meta(PaperId("2401.00001", 1), {"title": "One"}, latest=True)
        second.start_session("s")
        assert second.get_meta(PaperId("2401.00001", 1)) is not None
        first.pin("s", PaperId("2401.00001", 1))
        second.put_text(PaperId("2401.00001", 1), "text " * 100, method="html", extractor_version=2)
        assert first.get_text(PaperId("2401.00001", 1)) is not None
        first.put_search("q", {"hits": []}, 60.0)
        assert second.get_search("q") == {"hits": []}
        second.end_session("s")
        second.put_raw(PaperId("2401.00001", 1), "pdf", b"%PDF-1.4 x", "application/pdf")
        assert first.get_raw(PaperId("2401.00001", 1), "pdf") is not None
        assert first.clear().evicted == ["2401.00001v1"]  # removes files the other process read
    finally:
        first.close()
        second.close()


@platforms.linux_proc
def test_the_cache_never_keeps_a_file_open_that_another_replaces(windows_rules, monkeypatch, tmp_path):
    monkeypatch.setattr(osfiles, "FILES", stand_in_windows())
    _two_processes_at_work(tmp_path / "cache", monkeypatch)
    assert windows_rules == []


@pytest.mark.parametrize(
    ("undone", "refused"),
    [
        ("the platform choice", "journal.jsonl"),
        ("the platform choice, without compactions", "sessions.json"),
        ("releasing the journal", "journal.jsonl"),
        ("reading under the lock", "2401.00001v1.meta.json"),
    ],
)
@platforms.linux_proc
def test_each_part_of_the_windows_handling_is_needed(windows_rules, monkeypatch, tmp_path, undone, refused):
    """The check above can fail: without each part, Windows would refuse a replace."""
    monkeypatch.setattr(osfiles, "FILES", stand_in_windows())
    if undone.startswith("the platform choice"):
        monkeypatch.setattr(osfiles, "FILES", osfiles.PosixFiles())
        monkeypatch.setattr(osfiles.PosixFiles, "fsync_dir", lambda self, directory: None)
    elif undone == "releasing the journal":
        monkeypatch.setattr(cache_index.JournaledIndex, "release", lambda self: None)
    else:
        monkeypatch.setattr(cache_tiers, "_open_for_reading", lambda path: open(path, "rb"))
    with contextlib.suppress(errors.ArxivMcpError, OSError):  # the cache wraps some refusals in its own error
        _two_processes_at_work(tmp_path / "cache", monkeypatch, compacting="without" not in undone)
    assert refused in {Path(path).name for path in windows_rules}


@platforms.linux_proc
def test_a_durable_write_needs_no_directory_descriptor_on_windows(windows_rules, monkeypatch, tmp_path):
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(osfiles, "FILES", osfiles.PosixFiles())
    with pytest.raises(PermissionError):
        write_atomic(tmp_path / "f.json", b"{}", tmp_path / "tmp")
    monkeypatch.setattr(osfiles, "FILES", stand_in_windows())
    write_atomic(tmp_path / "f.json", b"{}\n", tmp_path / "tmp")
    assert (tmp_path / "f.json").read_bytes() == b"{}\n"


def test_a_replace_waits_out_a_reader_and_then_gives_up(monkeypatch, tmp_path):
    tries = []

    def busy_twice(source, target):
        tries.append(target)
        if len(tries) <= 2:
            raise PermissionError(errno.EACCES, "in use")

    monkeypatch.setattr(os, "replace", busy_twice)
    waits: list[float] = []
    files = osfiles.WindowsFiles(lambda pid: None, sleep=waits.append)
    files.replace(tmp_path / "a", tmp_path / "b")
    assert len(tries) == 3 and waits == list(osfiles.SHARING_RETRY_S[:2])
    tries.clear()
    monkeypatch.setattr(os, "replace", lambda s, t: (_ for _ in ()).throw(PermissionError(errno.EACCES, "in use")))
    with pytest.raises(PermissionError):
        files.replace(tmp_path / "a", tmp_path / "b")


@pytest.mark.parametrize(
    ("exit_code", "alive"),
    [(osfiles.STILL_ACTIVE, True), (0, False), (1, False), (None, False), (-1, True)],
)
def test_windows_tells_a_live_process_by_its_exit_code(exit_code, alive):
    files = osfiles.WindowsFiles(lambda pid: exit_code, sleep=lambda s: None)
    assert files.process_alive(4242) is alive


def test_leftovers_of_a_dead_writer_are_removed_on_both_platforms(monkeypatch, tmp_path):
    dead, live = 999_991, 999_992
    platforms_here = [stand_in_windows({live: osfiles.STILL_ACTIVE, dead: 0})]
    if not platforms.WINDOWS:  # there os.kill(pid, 0) would send Ctrl-C: the reason WindowsFiles exists
        platforms_here.append(osfiles.PosixFiles())
    for files in platforms_here:
        monkeypatch.setattr(osfiles, "FILES", files)
        (tmp_path / f"{dead}.a{TMP_SUFFIX}").write_bytes(b"x")
        live_pid = live if files.name == "windows" else os.getppid()
        (tmp_path / f"{live_pid}.b{TMP_SUFFIX}").write_bytes(b"x")
        assert clean_stale_tmp(tmp_path) == 1
        assert [p.name for p in tmp_path.iterdir()] == [f"{live_pid}.b{TMP_SUFFIX}"]
        (tmp_path / f"{live_pid}.b{TMP_SUFFIX}").unlink()


@pytest.mark.skipif(not hasattr(os, "O_NOCTTY"), reason="O_NOCTTY, which Windows lacks, stands in for O_BINARY")
def test_the_journal_and_sessions_are_opened_binary(monkeypatch, tmp_path):
    """On Windows a descriptor without O_BINARY turns the journal's newlines into two bytes."""
    marker = os.O_NOCTTY  # stands in for O_BINARY: harmless on a regular file here
    monkeypatch.setattr(osfiles, "BINARY", marker)
    seen: dict[str, list[int]] = {}
    real_open = os.open

    def recording_open(path, flags, *args, **kw):
        seen.setdefault(os.path.basename(path), []).append(flags)
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", recording_open)
    cache = Cache(tmp_path / "cache")
    try:
        cache.start_session("s")
        cache.put_meta(PaperId("2401.00001", 1), {"title": "One"}, latest=True)
    finally:
        cache.close()
    assert seen["journal.jsonl"] and seen["sessions.json"]
    assert all(flags & marker for name in ("journal.jsonl", "sessions.json") for flags in seen[name])


@pytest.mark.skipif(platforms.WINDOWS, reason="checks the POSIX choice on a POSIX machine")
def test_the_platform_files_are_posix_here():
    assert osfiles.FILES.name == "posix" and osfiles.FILES.keeps_replaced_open
