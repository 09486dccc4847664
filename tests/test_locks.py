"""The cross-process lock through its interface, on both implementations' logic.

`FlockLocker` runs as on POSIX; `MsvcrtLocker` runs its Windows logic over a stand-in for
`msvcrt` that keeps Windows' rules (a byte range from the descriptor's position, owned by the
handle, a second lock refused with EACCES, unlocking what is not locked an error). The same
behaviour is asserted of both, then of `LeasedLock` and `ProcessLock` built on each. A last
test imports every arxiv_mcp module with `fcntl` and `os.pread` hidden from the package and
the stand-in as `msvcrt`, and uses the cache and the shared limiter there.
"""

from __future__ import annotations

import errno
import os
import struct
import subprocess
import sys
import textwrap
import time

import pytest

from arxiv_mcp import budget
from arxiv_mcp.cache.disk import CacheWriteFailed
from arxiv_mcp.cache.filelock import Busy, LeasedLock, ProcessLock, cache_busy
from arxiv_mcp.cache.oslock import LOCK_OFFSET, OPEN_FLAGS, FlockLocker, MsvcrtLocker
from tests import platforms

try:
    import fcntl
except ImportError:  # Windows: the tests that use it are skipped
    fcntl = None  # type: ignore[assignment]


class StandInMsvcrt:
    """`msvcrt.locking` with Windows' semantics, over Linux open-file-description locks."""

    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        position = os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append((mode, position, nbytes))
        kind = fcntl.F_UNLCK if mode == self.LK_UNLCK else fcntl.F_WRLCK
        if mode == self.LK_UNLCK and not self._held(fd, position, nbytes):
            raise PermissionError(errno.EACCES, "Permission denied")  # Windows refuses to unlock a free range
        try:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi4x", kind, os.SEEK_SET, position, nbytes, 0))
        except BlockingIOError:
            raise PermissionError(errno.EACCES, "Permission denied") from None

    @staticmethod
    def _held(fd: int, position: int, nbytes: int) -> bool:
        """Whether this descriptor holds the range: a write lock asked of another open of the file conflicts."""
        probe = os.open(f"/proc/self/fd/{fd}", os.O_RDWR)
        try:
            query = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, position, nbytes, 0)
            answer = fcntl.fcntl(probe, fcntl.F_OFD_GETLK, query)
            return struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK
        finally:
            os.close(probe)


def flock_locker() -> FlockLocker:
    return FlockLocker(fcntl)


def msvcrt_locker() -> MsvcrtLocker:
    return MsvcrtLocker(StandInMsvcrt())


LOCKERS = [
    pytest.param(flock_locker, id="posix-flock", marks=platforms.posix_fcntl),
    pytest.param(msvcrt_locker, id="windows-msvcrt", marks=platforms.linux_locks),
]


@pytest.fixture(params=LOCKERS)
def locker(request):
    return request.param()


def test_a_lock_excludes_every_other_open_of_the_file_until_released_or_closed(locker, tmp_path):
    path = tmp_path / "lock"
    a, b = os.open(path, OPEN_FLAGS), os.open(path, OPEN_FLAGS)
    try:
        assert locker.try_lock(a)
        assert not locker.try_lock(b)  # another descriptor: another thread or process
        locker.unlock(a)
        assert locker.try_lock(b)
        assert not locker.try_lock(a)
        os.close(b)  # closing lets go
        b = -1
        assert locker.try_lock(a)
    finally:
        for fd in (a, b):
            if fd >= 0:
                os.close(fd)


@platforms.linux_locks
def test_windows_locks_one_byte_past_the_content(tmp_path):
    stand_in = StandInMsvcrt()
    locker = MsvcrtLocker(stand_in)
    fd = os.open(tmp_path / "lock", OPEN_FLAGS)
    try:
        assert locker.try_lock(fd)
        locker.unlock(fd)
    finally:
        os.close(fd)
    assert stand_in.calls == [(StandInMsvcrt.LK_NBLCK, LOCK_OFFSET, 1), (StandInMsvcrt.LK_UNLCK, LOCK_OFFSET, 1)]


def test_a_wait_ends_at_the_deadline_naming_the_holder(locker, tmp_path):
    path = tmp_path / "lock"
    holder = LeasedLock(path, cache_busy, locker=locker, lease=lambda: 30.0)
    waiter = LeasedLock(path, cache_busy, locker=locker)
    holding = holder.acquire()
    started = time.monotonic()
    with budget.tool_call(0.3), pytest.raises(Busy) as err:
        waiter.acquire()
    assert 0.2 < time.monotonic() - started < 10  # at its 0.3 s deadline, far from the 30 s lease
    assert "locked by another call of this server" in str(err.value)
    assert 29 <= err.value.retry_after_seconds <= 30
    holder.release(holding)
    with budget.tool_call(0.3):
        waiter.release(waiter.acquire())


def test_a_lease_nobody_renews_is_taken_over_and_its_holder_told(locker, tmp_path, caplog):
    path = tmp_path / "lock"
    now = [1000.0]
    stopped = LeasedLock(path, cache_busy, locker=locker, lease=lambda: 5.0, clock=lambda: now[0])
    other = LeasedLock(path, cache_busy, locker=locker, lease=lambda: 5.0, clock=lambda: now[0])
    old = stopped.acquire()
    with budget.tool_call(0.2), pytest.raises(Busy):
        other.acquire()  # within the lease: it waits
    now[0] += 6.0  # the holder made no progress for longer than its lease
    with budget.tool_call(0.5):
        new = other.acquire()
    assert "let its lease run out" in caplog.text
    assert stopped.superseded(old) and not other.superseded(new)
    with budget.tool_call(0.2), pytest.raises(Busy):
        stopped.acquire()  # the new holder excludes everyone, the old one included
    stopped.release(old)  # the old holder coming back lets go of nothing anyone needs
    other.release(new)
    with budget.tool_call(0.2):
        stopped.release(stopped.acquire())


def test_the_cache_lock_tells_the_next_holder_what_went_unfinished(locker, tmp_path):
    path = tmp_path / ".lock"
    first, second = ProcessLock(path, locker=locker), ProcessLock(path, locker=locker)
    assert first.acquire() and not first.acquire()  # re-entrant: only the outermost says True
    first.release()
    first.release()
    assert second.acquire()
    assert not second.interrupted  # a clean release
    second.release(finished=False)
    first.acquire()
    assert first.interrupted  # left half done
    first.release()
    first.close()
    second.close()


def test_a_cache_lock_holder_that_was_taken_over_marks_the_index_for_checking(locker, tmp_path):
    path = tmp_path / ".lock"
    stopped, other = ProcessLock(path, locker=locker), ProcessLock(path, locker=locker)
    with budget.tool_call(0.05):  # a holder whose call ends at once: its lease is the grace alone
        stopped.acquire()
    other._lock._clock = lambda: time.time() + 60  # later than the lease
    with budget.tool_call(0.5):
        other.acquire()
    assert other.interrupted  # a lease taken over: the update may be half done
    other.release()
    stopped.release()  # it resumes and finishes: its changes raced the new holder's
    with budget.tool_call(0.5):
        other.acquire()
    assert other.interrupted
    other.release()


@platforms.dev_full
def test_a_full_disk_at_a_new_lock_file_is_the_clear_disk_full_error(tmp_path):
    (tmp_path / "lock").symlink_to("/dev/full")
    with budget.tool_call(1.0), pytest.raises(CacheWriteFailed, match="the disk is full"):
        LeasedLock(tmp_path / "lock", cache_busy).acquire()


WINDOWS_LIKE = textwrap.dedent(
    """
    import importlib, os, pkgutil, sys, time
    sys.path.insert(0, os.environ["TESTS_PARENT"])
    from tests.test_locks import StandInMsvcrt
    import mcp.client, mcp.server.mcpserver, mcp.server.stdio  # the SDK imports fcntl on POSIX itself

    sys.modules["fcntl"] = None  # from here on, `import fcntl` fails as it does on Windows
    sys.modules["resource"] = None  # and so does `import resource`
    sys.modules["msvcrt"] = StandInMsvcrt()
    del os.pread, os.pwrite
    for name in [m for m in sys.modules if m == "arxiv_mcp" or m.startswith("arxiv_mcp.")]:
        del sys.modules[name]

    import arxiv_mcp
    names = ["arxiv_mcp"] + [m.name for m in pkgutil.walk_packages(arxiv_mcp.__path__, "arxiv_mcp.")]
    for name in names:
        if name != "arxiv_mcp.__main__":  # it runs the server; it imports only arxiv_mcp.cli
            importlib.import_module(name)
    from arxiv_mcp.cache.oslock import LOCKER
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.ids import PaperId
    from arxiv_mcp.upstream.rate_limiter import RateLimiter

    home = sys.argv[1]
    with Cache(home) as cache:
        cache.put_meta(PaperId("2401.00001", 1), {"id": "2401.00001", "title": "On Windows"}, latest=True)
    with Cache(home) as cache:
        assert cache.get_meta(PaperId("2401.00001", 1)).record["title"] == "On Windows"
    limiter = RateLimiter(0.2, state_file=__import__("pathlib").Path(home) / "ratelimit-arxiv")
    first, second = limiter.acquire(), limiter.acquire()
    assert second - first >= 0.2 - 1e-6
    from arxiv_mcp import http_limits
    assert http_limits.raise_descriptor_limit() == http_limits.WINDOWS_SOCKETS
    assert http_limits.max_connections() == http_limits.WINDOWS_SOCKETS - 64
    print(type(LOCKER).__name__, len(names), len(sys.modules["msvcrt"].calls) > 0)
    """
)


@platforms.linux_locks
def test_every_module_imports_and_the_locks_work_without_fcntl(tmp_path):
    env = {**os.environ, "TESTS_PARENT": os.getcwd(), "PYTHONPATH": os.getcwd()}
    done = subprocess.run(
        [sys.executable, "-c", WINDOWS_LIKE, str(tmp_path / "home")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    kind, modules, used = done.stdout.split()
    assert kind == "MsvcrtLocker" and int(modules) > 50 and used == "True"


def test_cache_file_names_are_valid_and_distinct_on_windows_and_macos():
    from arxiv_mcp.cache.files import TIERS, file_name
    from arxiv_mcp.ids import parse

    ids = ["2401.12345", "0704.0001", "hep-th/9901001", "cond-mat/0102003", "math/0309136", "solv-int/9901001"]
    names = [file_name(pid, v, tier) for pid in ids for v in (1, 12) for tier in TIERS]
    reserved = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
    for name in names:
        assert not set(name) & set('<>:"/\\|?*') and not name.endswith((" ", ".")), name
        assert name.split(".")[0].lower() not in reserved, name
    assert len({name.casefold() for name in names}) == len(names)
    # The one id form with capitals, an old id's subject class, never reaches a file name:
    # the service names papers by the normalised id, which drops it.
    assert parse("math.GT/0309136v2").id == "math/0309136"


def test_paths_shown_to_users_are_native_on_windows(monkeypatch):
    import ntpath
    import types

    from arxiv_mcp import config

    monkeypatch.setattr(config, "os", types.SimpleNamespace(path=ntpath, sep="\\"))
    monkeypatch.setenv("USERPROFILE", "C:\\Users\\ada")
    assert config.display_path("C:/Users/ada/.cache/arxiv-mcp/papers") == "~\\.cache\\arxiv-mcp\\papers"
    assert config.display_path("D:\\arxiv\\papers") == "D:\\arxiv\\papers"
    assert config.display_path("C:\\Users\\adam\\x") == "C:\\Users\\adam\\x"
