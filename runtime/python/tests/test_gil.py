"""A long run releases the GIL: a second Python thread keeps counting while it integrates."""

import threading
import time

import sparkgen
from conftest import problem_path


def test_a_million_steps_release_the_gil():
    problem = sparkgen.Problem.from_file(problem_path("pendulum.toml"))
    count = 0
    done = threading.Event()

    def counter():
        nonlocal count
        while not done.is_set():
            count += 1
            time.sleep(0.001)

    thread = threading.Thread(target=counter)
    thread.start()
    try:
        time.sleep(0.05)
        before = count
        start = time.perf_counter()
        solution = sparkgen.solve(problem, "Rattle", h=0.01, steps=10**6, every=10**6)
        seconds = time.perf_counter() - start
        after = count
    finally:
        done.set()
        thread.join()
    assert solution.summary["steps"] == 10**6
    # With the GIL held the counter could not run at all during the call; released, it ticks
    # about once a millisecond. Ask for a tenth of that.
    assert seconds > 0.2, "the run is too short to tell"
    assert after - before >= 100 * seconds, (after - before, seconds)
