"""An ensemble from a 2-D array of initial states equals its members' single runs, runs its
members in parallel, and reports a failed member without losing the others."""

import numpy as np
import pytest

import sparkgen
from conftest import problem_path


def initial_states(q0, members, spread, seed):
    rng = np.random.default_rng(seed)
    return np.asarray(q0) * (1.0 + spread * rng.uniform(-1.0, 1.0, (members, len(q0))))


@pytest.mark.parametrize(
    "name,method,stages,h,steps",
    [
        # Problem files run on the run-time engine whatever D, single runs and ensemble
        # members alike: bit for bit.
        ("guiding_centre.toml", "VprkGauss", 3, 0.1, 100),
        ("lotka_volterra.toml", "VprkGauss", 3, 0.1, 100),
        ("lotka_volterra.toml", None, None, 0.1, 100),
    ],
)
def test_ensemble_of_64_equals_64_single_runs(name, method, stages, h, steps):
    problem = sparkgen.Problem.from_file(problem_path(name))
    q0 = initial_states(problem.initial[0] + 0.05, 64, 0.1, 7)
    ensemble = sparkgen.solve(problem, method, stages, h=h, steps=steps, q0=q0, threads=2)
    assert ensemble.q.shape == (64, problem.dimension)
    assert ensemble.steps == [steps] * 64
    assert ensemble.errors == [None] * 64
    # The method ran as machine code, compiled once for every member.
    assert ensemble.summary["compile_seconds"] > 0.0
    for k in range(64):
        single = sparkgen.solve(problem, method, stages, h=h, steps=steps, q0=q0[k])
        assert np.array_equal(ensemble.q[k], single.q[-1]), k
        assert np.array_equal(ensemble.p[k], single.p[-1]), k
        assert ensemble.t[k] == single.t[-1]
        assert ensemble.max_constraint_residual[k] == single.summary["max_constraint_residual"]


def test_ensemble_with_momenta_equals_the_default_momenta():
    """Without p0 a degenerate Lagrangian's members start from p = ϑ(q); passing those momenta
    gives the same run."""
    problem = sparkgen.Problem.from_file(problem_path("lotka_volterra.toml"))
    q0 = initial_states([2.0, 1.0], 8, 0.2, 3)
    default = sparkgen.solve(problem, "VprkGauss", 2, steps=20, q0=q0)
    theta = np.stack([q0[:, 1] + np.log(q0[:, 1]) / q0[:, 0], q0[:, 0]], axis=1)
    given = sparkgen.solve(problem, "VprkGauss", 2, steps=20, q0=q0, p0=theta)
    assert np.array_equal(default.q, given.q)


def test_a_failed_member_is_reported_with_the_others_kept():
    """A member started where ϑ = (y + ln y / x, x) is undefined (y < 0) fails at once; the
    exception carries the ensemble, whose other members finished."""
    problem = sparkgen.Problem.from_file(problem_path("lotka_volterra.toml"))
    q0 = np.array([[2.0, 1.0], [2.0, -1.0], [1.5, 1.2]])
    with pytest.raises(sparkgen.IntegrationError) as caught:
        sparkgen.solve(problem, "VprkGauss", 2, steps=10, q0=q0)
    assert "1 of 3 members failed; member 1" in str(caught.value)
    solution = caught.value.solution
    assert solution.errors[0] is None and solution.errors[2] is None
    assert solution.errors[1] is not None
    assert solution.steps == [10, 0, 10]
    assert np.all(np.isfinite(solution.q[[0, 2]]))


def test_holonomic_ensemble_needs_momenta():
    problem = sparkgen.Problem.from_file(problem_path("pendulum.toml"))
    q0 = np.tile(problem.initial[0], (4, 1))
    with pytest.raises(ValueError, match="p0"):
        sparkgen.solve(problem, "Rattle", steps=10, q0=q0)
    p0 = np.zeros_like(q0)
    ensemble = sparkgen.solve(problem, "Rattle", steps=10, q0=q0, p0=p0)
    single = sparkgen.solve(problem, "Rattle", steps=10)
    assert np.array_equal(ensemble.q, np.tile(single.q[-1], (4, 1)))
