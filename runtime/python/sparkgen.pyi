"""sparkgen: structure-preserving integrators (SPARK, VPARK, VSPARK, HPARK, HSPARK, SLRK, VPRK,
RATTLE, SHAKE) for constrained and degenerate mechanical systems.

A problem is written as expressions (a problem file, TOML text, or the same keys as keyword
arguments); `solve` runs any method of the catalogue on it by name and returns numpy arrays;
`methods` lists the catalogue with its facts and the method guide's recommendations.
"""

import os
from collections.abc import Mapping
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str

ArrayLike = npt.ArrayLike
Path = Union[str, os.PathLike[str]]

class Error(Exception):
    """Every error sparkgen raises: its message is the library's typed error."""

class ProblemError(Error):
    """A problem that cannot be read or used: located errors of a problem file
    (`FILE:LINE:COLUMN: message`) or of keyword arguments (`<keywords>: `theta[1]`, column 5:
    message`), an unknown parameter, parameter values the problem cannot take."""

class MethodError(Error):
    """An unknown method, a stage count its family does not ship, a method of another kind."""

class OptionsError(Error):
    """An option that cannot be used: step size, step count or end time, every, threads, out."""

class InitialStateError(Error):
    """Initial data refused before the first step (wrong length, not finite, inconsistent with
    the constraints: pass project_initial=True to project them)."""

class IntegrationError(Error):
    """A run that stopped early; the message names the step, the time and the cause."""

    solution: Union["Solution", "EnsembleSolution"]
    """What was integrated up to the last accepted step (every member, for an ensemble)."""

class OutputError(Error):
    """A trajectory file that could not be written."""

class Problem:
    """A problem written as expressions.

    `Problem(**keys)` takes a problem file's keys as keyword arguments: `kind`
    (`"degenerate_lagrangian"`, `"holonomic"`, `"lagrangian"`), `coordinates`, and per kind
    `theta` and `hamiltonian`; `mass`, `potential` and `constraints`; `velocities` and
    `lagrangian`; the mappings `parameters` (name → number), `definitions` (name →
    expression, in order) and `initial` (`q`, and `p` or `v`).
    """

    def __init__(self, **keys: Any) -> None: ...
    @staticmethod
    def from_file(path: Path, parameters: Optional[Mapping[str, float]] = None) -> "Problem":
        """The problem file at `path`, with `parameters` set."""
    @staticmethod
    def from_toml(text: str, name: str = "<string>") -> "Problem":
        """The problem file `text`, named `name` in messages."""
    def with_parameters(self, **values: float) -> "Problem":
        """The same problem with these parameter values."""
    def with_initial(self, q: ArrayLike, p: Optional[ArrayLike] = None) -> "Problem":
        """The same problem from `q` and `p` (`v` for a Lagrangian; a degenerate Lagrangian
        without `p` starts from `p = ϑ(q)`)."""
    @property
    def kind(self) -> str: ...
    @property
    def dimension(self) -> int: ...
    @property
    def coordinates(self) -> list[str]: ...
    @property
    def parameters(self) -> dict[str, float]: ...
    @property
    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        """`(q, p)`, or `(q, v)` for a Lagrangian."""
    @property
    def name(self) -> str:
        """The file's path, `<string>` or `<keywords>`."""

class Solution:
    """One run: the points kept (every `every`-th and the last)."""

    t: np.ndarray
    """Times, shape (N,)."""
    q: np.ndarray
    """Positions, shape (N, D)."""
    p: np.ndarray
    """Momenta, shape (N, D)."""
    lam: Optional[np.ndarray]
    """The carried multiplier λ, shape (N, M); None for methods that carry none."""
    energy_error: Optional[np.ndarray]
    """Energy error at every point (relative or absolute: summary["energy_error_kind"]); None
    where the problem has no energy."""
    constraint_residual: np.ndarray
    """Constraint residual at every point (what it measures: summary["constraint"])."""
    summary: dict[str, Any]
    """The fields of `sparkgen run --json`: problem, kind, method, stages, h, steps,
    steps_requested, t_final, path, backend, compile_seconds, constraint,
    max_constraint_residual, energy_error_kind,
    max_energy_error, max_relative_energy_error, newton_iterations_mean,
    initial_projection_iterations, wall_seconds, steps_per_second, q_final, p_final, out, plot,
    error."""

class EnsembleSolution:
    """An ensemble: member k in row k."""

    t: np.ndarray
    """Time of each member's last accepted state, shape (M,)."""
    q: np.ndarray
    """Final positions, shape (M, D)."""
    p: np.ndarray
    """Final momenta, shape (M, D)."""
    steps: list[int]
    errors: list[Optional[str]]
    """Why each member stopped early; None for those that finished."""
    max_constraint_residual: np.ndarray
    max_energy_error: Optional[np.ndarray]
    summary: dict[str, Any]
    """method, stages, h, steps, members, failed, threads, max_constraint_residual,
    max_energy_error, particle_steps_per_second, compile_seconds (the method compiled once for
    every member; None where it was interpreted), wall_seconds."""

class Method:
    """A method of the catalogue with what is known of it."""

    name: str
    family: str
    """The `method` argument of `solve`."""
    stages: int
    """The `stages` argument of `solve`."""
    kinds: list[str]
    declared_order: int
    computed_order: Optional[int]
    symplectic: bool
    symmetric: bool
    constraint_preserving: bool
    limitations: list[str]
    recommendation: Optional[str]
    """The method guide's class: recommended, suitable, reference or avoid."""
    reason: Optional[str]
    long_run_pick: bool
    facts: dict[str, Any]
    """The row of `sparkgen methods --json`."""
    @property
    def recommended(self) -> bool: ...

def solve(
    problem: Problem,
    method: Optional[str] = None,
    stages: Optional[int] = None,
    *,
    h: Optional[float] = None,
    t_end: Optional[float] = None,
    steps: Optional[int] = None,
    every: int = 1,
    q0: Optional[ArrayLike] = None,
    p0: Optional[ArrayLike] = None,
    project_initial: bool = False,
    threads: Optional[int] = None,
    out: Optional[Path] = None,
) -> Union[Solution, EnsembleSolution]:
    """Runs `method` (a family of `methods()`; None: the default for the problem's kind) with
    `stages` stages, step `h` (0.1), for `steps` steps or until `t_end` (10⁴ steps). `q0`, `p0`
    (for a Lagrangian, the velocities) replace the initial data: 1-D runs once and returns a
    `Solution`, (M, D) runs an ensemble on `threads` threads and returns an `EnsembleSolution`.
    `out` streams a single run's kept points to a CSV, JSON or .npy file. The GIL is released
    while it integrates. A run that stops early raises IntegrationError carrying what it
    integrated."""

def methods(kind: Optional[str] = None, recommended: bool = False) -> list[Method]:
    """Every method (of `kind` when given); with `recommended`, those the method guide
    recommends, as `sparkgen methods --recommended` lists them."""
