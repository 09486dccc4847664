import struct
import threading
import time

import pytest

from arxiv_mcp.errors import Throttled
from arxiv_mcp.upstream.rate_limiter import RateLimiter, SingleFlight
from tests import platforms
from tests.conftest import in_threads, paper


def test_ten_concurrent_callers_get_slots_three_seconds_apart():
    slept = []
    limiter = RateLimiter(3.0, clock=lambda: 1000.0, sleep=slept.append)
    starts = sorted(in_threads(lambda _: limiter.acquire()))
    assert len(starts) == 10
    assert all(b - a >= 3.0 - 1e-9 for a, b in zip(starts, starts[1:]))
    assert starts[-1] - starts[0] == pytest.approx(27.0)
    assert sorted(slept) == pytest.approx([3.0 * k for k in range(1, 10)])


def test_sleeps_until_the_booked_slot():
    now = [0.0]
    slept = []
    limiter = RateLimiter(3.0, clock=lambda: now[0], sleep=slept.append)
    assert limiter.acquire() == 0.0
    assert limiter.acquire() == 3.0
    assert slept == [3.0]
    now[0] = 10.0
    assert limiter.acquire() == 10.0  # idle long enough: no wait


def test_deadline_refuses_without_booking():
    now = [0.0]
    limiter = RateLimiter(3.0, clock=lambda: now[0], sleep=lambda s: None)
    limiter.acquire()
    limiter.acquire()
    with pytest.raises(Throttled) as err:
        limiter.acquire(within=4.0)
    assert err.value.retry_after_seconds == pytest.approx(6.0)
    assert limiter.acquire() == 6.0  # the refused call booked nothing


def test_defer_pushes_everyone_back():
    now = [0.0]
    limiter = RateLimiter(1.0, clock=lambda: now[0], sleep=lambda s: None)
    limiter.defer(5.0)
    assert limiter.acquire() == 5.0


def test_state_file_spaces_requests_across_limiter_instances(tmp_path):
    now = [0.0]
    a = RateLimiter(3.0, state_file=tmp_path / "slot", clock=lambda: now[0], sleep=lambda s: None)
    b = RateLimiter(3.0, state_file=tmp_path / "slot", clock=lambda: now[0], sleep=lambda s: None)
    assert [a.acquire(), b.acquire(), a.acquire()] == [0.0, 3.0, 6.0]


def test_real_clock_short_interval():
    limiter = RateLimiter(0.05)
    starts = sorted(in_threads(lambda _: limiter.acquire()))
    assert all(b - a >= 0.05 - 1e-6 for a, b in zip(starts, starts[1:]))


def test_single_flight_runs_once_and_shares_result_and_errors():
    flights = SingleFlight()
    calls = []
    gate = threading.Event()

    def work():
        calls.append(1)
        gate.wait(2)
        return "done"

    results = []
    threads = [threading.Thread(target=lambda: results.append(flights.do("k", work))) for _ in range(10)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    gate.set()
    for t in threads:
        t.join()
    assert calls == [1] and results == ["done"] * 10

    def boom():
        raise ValueError("x")

    with pytest.raises(ValueError):
        flights.do("k", boom)
    assert flights.do("k", lambda: 2) == 2  # nothing remembered after the work ends


def test_the_next_slot_counts_from_when_the_request_went_out():
    now = [0.0]
    limiter = RateLimiter(3.0, clock=lambda: now[0], sleep=lambda s: None)
    assert limiter.acquire() == 0.0
    now[0] = 0.4  # the connection and the answer's head took 0.4 s
    limiter.sent()
    assert limiter.acquire() == pytest.approx(3.4)


def test_a_slot_implausibly_far_ahead_is_discarded_with_a_warning(tmp_path, caplog):
    state = tmp_path / "ratelimit-arxiv"
    state.write_bytes(struct.pack("<d", time.time() + 10 * 86400))  # a clock set back, or another machine's
    limiter = RateLimiter(3.0, state_file=state, sleep=lambda s: None)
    assert limiter.paused_for() == 0.0
    assert "discarded" in caplog.text
    limiter.defer(600.0)  # a real Retry-After, within the bound, is kept
    assert 590 < limiter.paused_for() <= 600


def test_slots_are_wall_time_read_alike_by_every_process(tmp_path):
    """Two limiters whose processes' monotonic clocks disagree (another boot, another machine)
    share one timeline through the file."""
    state = tmp_path / "ratelimit-arxiv"
    a = RateLimiter(3.0, state_file=state, sleep=lambda s: None)
    b = RateLimiter(3.0, state_file=state, sleep=lambda s: None)
    first = a.acquire()
    second = b.acquire()
    assert second - first == pytest.approx(3.0, abs=0.05)
    assert abs(first - time.time()) < 5  # wall time, not time since boot


# --- through the MCP client --------------------------------------------------------------------

PID = "2403.00001"


@pytest.mark.anyio
@pytest.mark.parametrize("slot", ["ten-days-ahead", "previous-boot-monotonic"])
async def test_a_slot_left_by_another_clock_holds_nothing_back(fake, make_config, connect, caplog, slot):
    fake.add(paper(PID, "After a reboot"))
    config = make_config(ARXIV_MCP_MIN_INTERVAL_S=3, ARXIV_MCP_DEADLINE_S=5)
    config.home.mkdir(parents=True)
    value = time.time() + 10 * 86400 if slot == "ten-days-ahead" else time.monotonic() + 3498.7
    (config.home / "ratelimit-arxiv").write_bytes(struct.pack("<d", value))
    async with connect(config=config) as client:
        started = time.monotonic()
        result = await client.call_tool("get_paper", {"paper_id": PID})
        assert not result.is_error, result.content[0].text
        assert time.monotonic() - started < 5
    assert ("discarded" in caplog.text) == (slot == "ten-days-ahead")


@pytest.mark.anyio
@platforms.dev_full
async def test_a_full_disk_at_the_limiter_files_is_the_clear_disk_message(fake, make_config, connect):
    fake.add(paper(PID, "No room"))
    config = make_config()
    config.home.mkdir(parents=True)
    for name in ("ratelimit-arxiv", "ratelimit-arxiv.lock"):
        (config.home / name).symlink_to("/dev/full")  # every write there fails with ENOSPC
    async with connect(config=config) as client:
        result = await client.call_tool("get_paper", {"paper_id": PID})
        assert result.is_error
        assert "refused a write: the disk is full" in result.content[0].text, result.content[0].text
        with pytest.raises(Exception, match="the disk is full"):
            await client.read_resource(f"arxiv://paper/{PID}v1/text")
