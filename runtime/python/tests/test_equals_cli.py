"""A Python run equals `sparkgen run --problem-file … --json` for the same problem, method and
steps: the same driver runs both, so the numbers agree to the last bit (asserted to 1e-14
relative, the acceptance bound, and reported exactly where they do not)."""

import numpy as np
import pytest

import sparkgen
from conftest import problem_path

CASES = [
    # (file, method, stages, h, steps): Lotka–Volterra (D = 2) and the guiding centre (D = 4)
    # on the run-time engine, a pendulum (holonomic, the compiled steppers on the file's
    # tapes), Kepler (a Lagrangian on its Euler–Lagrange equations).
    ("lotka_volterra.toml", "VprkGauss", 3, 0.1, 200),
    ("lotka_volterra.toml", "VsparkPrimaryGlrkpMidpoint", 3, 0.1, 200),
    ("lotka_volterra.toml", None, None, 0.05, 300),
    ("guiding_centre.toml", "VprkGauss", 3, 0.1, 200),
    ("guiding_centre.toml", None, None, 0.1, 100),
    ("pendulum.toml", "Rattle", None, 0.05, 200),
    ("pendulum.toml", "RattleLobattoIIIAIIIB", 2, 0.05, 100),
    ("kepler.toml", "IdaeVparkGlrkpSymplectic", 2, 0.05, 100),
]


def relative(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


@pytest.mark.parametrize("name,method,stages,h,steps", CASES)
def test_solution_equals_the_command(cli, name, method, stages, h, steps):
    path = problem_path(name)
    args = ["run", "--problem-file", path, "--h", h, "--steps", steps]
    if method is not None:
        args += ["--method", method]
    if stages is not None:
        args += ["--stages", stages]
    expected, code = cli(*args)
    assert code == 0, expected
    solution = sparkgen.solve(
        sparkgen.Problem.from_file(path), method, stages, h=h, steps=steps
    )
    got = solution.summary
    for key in ["problem", "kind", "method", "stages", "steps", "path", "constraint",
                "energy_error_kind"]:
        assert got[key] == expected[key], key
    for key in ["t_final", "q_final", "p_final", "max_constraint_residual",
                "newton_iterations_mean"]:
        assert relative(got[key], expected[key]) <= 1e-14, (key, got[key], expected[key])
    if expected["max_energy_error"] is not None:
        assert relative(got["max_energy_error"], expected["max_energy_error"]) <= 1e-14
    # The arrays end at the summary's final state, and hold every point.
    assert solution.t.shape == (steps + 1,)
    assert solution.q.shape == (steps + 1, len(expected["q_final"]))
    assert np.array_equal(solution.q[-1], got["q_final"])
    assert np.array_equal(solution.p[-1], got["p_final"])
    assert float(np.max(solution.constraint_residual)) == got["max_constraint_residual"]


def test_keywords_equal_the_file():
    """The same problem given as keyword arguments runs bit for bit as its file."""
    from_file = sparkgen.Problem.from_file(problem_path("guiding_centre.toml"))
    keywords = sparkgen.Problem(
        kind="degenerate_lagrangian",
        coordinates=["x", "y", "z", "u"],
        theta=[
            "-b0 * y / 2.0 + u * by / bmod",
            "b0 * x / 2.0 - u * bx / bmod",
            "(x * x + kappa * y * y) / 2.0 + epsilon * r2 * r2 / 4.0 + u * b0 / bmod",
            "0.0",
        ],
        hamiltonian="u * u / 2.0 + mu * bmod",
        parameters={"b0": 1.0, "kappa": 4.0, "epsilon": 0.5, "mu": 0.025},
        definitions={
            "r2": "x * x + y * y",
            "bx": "x * (1.0 + epsilon * r2)",
            "by": "y * (kappa + epsilon * r2)",
            "bmod": "sqrt(b0 * b0 + powi(bx, 2) + powi(by, 2))",
        },
        initial={"q": np.array([0.5, 0.0, 0.0, 0.1])},
    )
    a = sparkgen.solve(from_file, "VprkGauss", 2, h=0.1, steps=50)
    b = sparkgen.solve(keywords, "VprkGauss", 2, h=0.1, steps=50)
    assert np.array_equal(a.q, b.q) and np.array_equal(a.p, b.p)


def test_parameters_and_initial_data_as_the_command_sets_them(cli):
    path = problem_path("lotka_volterra.toml")
    expected, code = cli("run", "--problem-file", path, "--steps", 50, "--param", "b2=1.5")
    assert code == 0
    problem = sparkgen.Problem.from_file(path, {"b2": 1.5})
    assert problem.parameters["b2"] == 1.5
    got = sparkgen.solve(problem, steps=50).summary
    assert got["q_final"] == expected["q_final"]
    # with_parameters gives the same problem; with_initial the same as q0.
    again = sparkgen.Problem.from_file(path).with_parameters(b2=1.5)
    assert sparkgen.solve(again, steps=50).summary["q_final"] == expected["q_final"]
    moved = problem.with_initial([1.5, 1.2])
    a = sparkgen.solve(moved, steps=50)
    b = sparkgen.solve(problem, steps=50, q0=[1.5, 1.2])
    assert np.array_equal(a.q, b.q)
    assert a.q[0].tolist() == [1.5, 1.2]


def test_every_keeps_every_kth_point_and_the_last():
    problem = sparkgen.Problem.from_file(problem_path("lotka_volterra.toml"))
    full = sparkgen.solve(problem, "VprkGauss", 2, h=0.1, steps=25)
    thinned = sparkgen.solve(problem, "VprkGauss", 2, h=0.1, steps=25, every=10)
    assert thinned.t.tolist() == [0.0, 1.0, 2.0, 2.5]
    assert np.array_equal(thinned.q, full.q[[0, 10, 20, 25]])


def test_carried_multiplier_is_returned():
    """A method that carries λ returns it at every point; one that carries none, None."""
    problem = sparkgen.Problem.from_file(problem_path("lotka_volterra.toml"))
    carrying = [m for m in sparkgen.methods("degenerate-lagrangian")
                if m.facts["carried_multiplier"] is not None
                and m.recommendation in ("recommended", "suitable")]
    assert carrying, "the catalogue has methods that carry a multiplier"
    m = carrying[0]
    solution = sparkgen.solve(problem, m.family, m.stages, h=0.1, steps=20)
    assert solution.lam is not None and solution.lam.shape[0] == 21
    assert np.all(np.isfinite(solution.lam))
    assert sparkgen.solve(problem, "VprkGauss", 2, h=0.1, steps=20).lam is None


def test_trajectory_file_equals_the_arrays(tmp_path):
    problem = sparkgen.Problem.from_file(problem_path("lotka_volterra.toml"))
    out = tmp_path / "run.npy"
    solution = sparkgen.solve(problem, "VprkGauss", 2, h=0.1, steps=30, every=5, out=out)
    table = np.load(out)
    assert np.array_equal(table[:, 0], solution.t)
    assert np.array_equal(table[:, 1:3], solution.q)
    assert np.array_equal(table[:, 3:5], solution.p)
    assert solution.summary["out"] == str(out)
