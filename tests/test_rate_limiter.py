import threading
import time

import pytest

from arxiv_mcp.errors import Throttled
from arxiv_mcp.upstream.rate_limiter import RateLimiter, SingleFlight
from tests.conftest import in_threads


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
