"""Every class of the library's errors reaches Python as an exception of its class, with the
typed error's message: the file, line and column of a problem file's error, the keyword of a
keyword argument's, the step and time of a failed run."""

import numpy as np
import pytest

import sparkgen
from conftest import problem_path

LV = problem_path("lotka_volterra.toml")
PENDULUM = problem_path("pendulum.toml")


def test_every_class_is_an_error():
    for cls in [sparkgen.ProblemError, sparkgen.MethodError, sparkgen.OptionsError,
                sparkgen.InitialStateError, sparkgen.IntegrationError, sparkgen.OutputError]:
        assert issubclass(cls, sparkgen.Error) and issubclass(sparkgen.Error, Exception)


def test_problem_file_errors_keep_file_line_and_column(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(
        'kind = "degenerate_lagrangian"\n'
        'coordinates = ["x", "y"]\n'
        'theta = ["y", "x + w"]\n'
        'hamiltonian = "x * y"\n'
        "[initial]\n"
        "q = [1.0, 2.0]\n"
    )
    with pytest.raises(sparkgen.ProblemError, match=rf"^{path}:3:20: unknown identifier `w`"):
        sparkgen.Problem.from_file(path)
    with pytest.raises(sparkgen.ProblemError, match=r"^<string>:1:\d+: TOML syntax"):
        sparkgen.Problem.from_toml('kind = "degenerate_lagrangian')
    with pytest.raises(sparkgen.ProblemError, match="cannot read the problem file"):
        sparkgen.Problem.from_file(tmp_path / "missing.toml")


def test_keyword_errors_name_the_keyword_and_column():
    keys = dict(
        kind="degenerate_lagrangian",
        coordinates=["x", "y"],
        theta=["y", "x + w"],
        hamiltonian="x * y",
        initial={"q": [1.0, 2.0]},
    )
    with pytest.raises(sparkgen.ProblemError,
                       match=r"^<keywords>: `theta\[1\]`, column 5: unknown identifier `w`"):
        sparkgen.Problem(**keys)
    with pytest.raises(sparkgen.ProblemError, match=r"`initial.q\[1\]`.*finite"):
        sparkgen.Problem(**{**keys, "theta": ["y", "x"], "initial": {"q": [1.0, float("nan")]}})
    with pytest.raises(sparkgen.ProblemError, match="unknown key `thetta`"):
        sparkgen.Problem(**{**keys, "theta": ["y", "x"], "thetta": ["y", "x"]})
    with pytest.raises(ValueError, match="keyword `parameters.a`"):
        sparkgen.Problem(**{**keys, "theta": ["y", "x"], "parameters": {"a": object()}})


def test_parameter_errors():
    with pytest.raises(sparkgen.ProblemError, match="unknown parameter `zz`.*a1, a2, b1, b2"):
        sparkgen.Problem.from_file(LV, {"zz": 1.0})
    with pytest.raises(sparkgen.ProblemError, match="not positive definite"):
        sparkgen.Problem.from_file(PENDULUM).with_parameters(m=-1.0)
    with pytest.raises(sparkgen.ProblemError, match="must be finite"):
        sparkgen.Problem.from_file(LV, {"a1": float("inf")})


def test_method_errors():
    problem = sparkgen.Problem.from_file(LV)
    with pytest.raises(sparkgen.MethodError, match="unknown method `Nope`.*valid methods"):
        sparkgen.solve(problem, "Nope", steps=1)
    with pytest.raises(sparkgen.MethodError, match="VprkGauss has no s = 99"):
        sparkgen.solve(problem, "VprkGauss", 99, steps=1)
    with pytest.raises(sparkgen.MethodError, match="unknown method `Rattle` for degenerate"):
        sparkgen.solve(problem, "Rattle", steps=1)
    with pytest.raises(sparkgen.MethodError, match="unknown problem kind"):
        sparkgen.methods("nope")


def test_option_errors(tmp_path):
    problem = sparkgen.Problem.from_file(LV)
    with pytest.raises(sparkgen.OptionsError, match="finite and positive"):
        sparkgen.solve(problem, h=-0.1, steps=1)
    with pytest.raises(sparkgen.OptionsError, match="between 1 and 2⁵³"):
        sparkgen.solve(problem, steps=0)
    with pytest.raises(sparkgen.OptionsError, match="outside 1..=2⁵³"):
        sparkgen.solve(problem, h=1e-300, t_end=1.0)
    with pytest.raises(sparkgen.OptionsError, match="every"):
        sparkgen.solve(problem, steps=1, every=0)
    with pytest.raises(sparkgen.OptionsError, match="threads"):
        sparkgen.solve(problem, steps=1, q0=[[2.0, 1.0]], threads=0)
    with pytest.raises(sparkgen.OptionsError, match="unknown extension"):
        sparkgen.solve(problem, steps=1, out=tmp_path / "run.txt")
    with pytest.raises(sparkgen.OptionsError, match="out"):
        sparkgen.solve(problem, steps=1, q0=[[2.0, 1.0]], out=tmp_path / "run.csv")


def test_initial_state_errors():
    pendulum = sparkgen.Problem.from_file(PENDULUM)
    with pytest.raises(sparkgen.InitialStateError, match="project"):
        sparkgen.solve(pendulum, "Rattle", steps=1, q0=[1.2, 0.0], p0=[0.0, 0.0])
    projected = sparkgen.solve(pendulum, "Rattle", steps=1, q0=[1.2, 0.0], p0=[0.0, 0.0],
                               project_initial=True)
    assert abs(np.hypot(*projected.q[0]) - 1.0) < 1e-14
    with pytest.raises(sparkgen.InitialStateError, match="has 3 entries"):
        pendulum.with_initial([1.0, 0.0, 0.0], [0.0, 0.0])
    with pytest.raises(sparkgen.InitialStateError, match="must be finite"):
        sparkgen.solve(pendulum, "Rattle", steps=1, q0=[float("nan"), 0.0], p0=[0.0, 0.0])
    with pytest.raises(sparkgen.InitialStateError, match="`p` is required"):
        pendulum.with_initial([1.0, 0.0])


def test_a_failed_step_raises_with_what_was_integrated():
    """ϑ = (−y/2, x/2), H = y + ln x: ẋ = −1 drives x to 0 at t = 1, where ẏ = 1/x blows up.
    The run stops there, naming the step and the time, and hands back the points before: up to
    t = 1 at most (the step that lands on x ≈ 0 may still solve its equations), the failed step
    being the one after the last point."""
    problem = sparkgen.Problem(
        kind="degenerate_lagrangian",
        coordinates=["x", "y"],
        theta=["-y / 2.0", "x / 2.0"],
        hamiltonian="y + ln(x)",
        initial={"q": [1.0, 0.0]},
    )
    with pytest.raises(sparkgen.IntegrationError, match=r"step \d+") as caught:
        sparkgen.solve(problem, "VprkGauss", 2, h=0.1, steps=30)
    solution = caught.value.solution
    assert 0 < solution.t[-1] <= 1.0
    assert f"step {len(solution.t)} " in str(caught.value)
    assert solution.summary["error"] == str(caught.value)
    assert np.all(np.isfinite(solution.q))


def test_output_errors(tmp_path):
    problem = sparkgen.Problem.from_file(LV)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(sparkgen.OutputError, match="cannot write"):
        sparkgen.solve(problem, steps=5, out=blocker / "run.csv")


def test_wrong_arguments_are_value_errors():
    problem = sparkgen.Problem.from_file(LV)
    with pytest.raises(ValueError, match="q0"):
        sparkgen.solve(problem, steps=1, q0=[[[1.0]]])
    with pytest.raises(ValueError, match="q0"):
        sparkgen.solve(problem, steps=1, q0=[[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="p0"):
        sparkgen.solve(problem, steps=1, p0=[1.0, 2.0])
    with pytest.raises(ValueError, match="q0"):
        sparkgen.solve(problem, steps=1, q0="abc")
