"""OpenMM's side of the hanging-chain benchmark (`runtime/peers/benches/chains.rs`).

Run by the bench as a subprocess with the Python of its virtual environment; reads one JSON
document from stdin and prints one JSON line per (chain, angle hint, constraint tolerance)
on stdout.

Input (written by the bench):

    {"h": 2e-3, "g": 1.0, "length": 1.0, "threads": 1, "warmup": 2, "repeats": 7,
     "tolerances": [1e-5, ...], "angle_hints": [false, true],
     "chains": [{"links": N, "steps": S, "x": [x_1, y_1, ..., x_N, y_N],
                 "v": [vx_1, vy_1, ...]}, ...]}

The system is the bench's planar chain in OpenMM's units (lengths in nm, masses in amu, time in
ps, energies in kJ/mol; every number is taken as is, so g = 1 means 1 kJ/mol/nm/amu): N + 1
particles, particle 0 the pivot at the origin (mass PIVOT_MASS: OpenMM refuses a constraint on
a massless particle, its way of fixing one), particles 1..N of mass 1 at (x_k, y_k, 0), a
distance constraint of the link length between particles k - 1 and k, gravity as the
CustomExternalForce `m*g*y` with the per-particle parameter m (0 for the pivot, 1 for the
others) and the global parameter g, no other force, no centre-of-mass motion remover; with an
angle hint (below) also a HarmonicAngleForce of force constant 0. Integrator: VerletIntegrator(h)
(leapfrog, positions constrained by OpenMM's CCMA to `setConstraintTolerance(tol)`), platform
CPU with Threads = "1".

OpenMM solves the position constraints with CCMA (no rigid waters here, so no SETTLE): Newton
iterations whose matrix is a fixed approximate inverse of the constraint coupling matrix, built
once when the context is made, entries below 0.02 dropped, at most 150 iterations per step (a step
that reaches the cap is accepted silently). OpenMM takes the coupling between two constraints
that share a particle from a third constraint closing a triangle or from the equilibrium angle of
a HarmonicAngleForce term; a chain has neither, so its matrix is the identity and CCMA is a
Jacobi iteration, which on a long chain reaches the cap long before the tolerance. Hence two
configurations, each run at every tolerance:

- angle hint off: the system above as it stands;
- angle hint on: in addition a HarmonicAngleForce with force constant 0 (no force, no energy, the
  same dynamics) whose equilibrium angle at each interior particle is the chain's angle there in
  the initial state: what an MD force field with angle terms gives CCMA.

OpenMM's VerletIntegrator is a leapfrog: the velocities of its context lie half a step behind
the positions. The bench passes v = v(-h/2) (see the bench's documentation), so that OpenMM's
first position step is RATTLE's.

For each chain, angle hint and tolerance the script makes one context and

- an error run (untimed): S steps of `integrator.step(1)`, reading back the positions and
  OpenMM's energy after every step: the maximum over the run (t = 0 included) of the constraint
  error max_k | |x_k - x_{k-1}| - l | (x_0 the pivot; a NaN is kept, reported as null), and of
  the relative energy drift |E - E_0| / |E_0|, E = potential + kinetic energy as OpenMM reports
  it (for the leapfrog, the kinetic energy of the velocities shifted to t and projected onto the
  constraints, OpenMM's own estimate);
- timed runs: `repeats` times, the initial state set again, `warmup` steps, then
  `integrator.step(S)` timed with `time.perf_counter`; ns per step of each.

Output line: {"links", "tolerance", "angle_hint", "steps", "ns_per_step" (list, one per repeat),
"max_constraint_error", "max_energy_drift", "energy0", "final_x" (x_1, y_1, ... at t = S h),
"openmm" (version), "platform", "threads" (as the context reports it), "failure" (null, or
OpenMM's message if a step failed: then the numbers are those before the failure, errors null)}.
"""

import json
import math
import sys
import time

import numpy as np
import openmm
from openmm import unit


# OpenMM keeps a particle of mass 0 fixed but refuses a constraint on one ("A constraint cannot
# involve a massless particle"): the pivot is a particle this heavy, without gravity. The chain's
# tension (at most N g) gives it a momentum of at most N g T over a run of length T, so it moves
# by at most N g T^2 / M (1e-17 for N = 1024, T = 1) and carries a kinetic energy of at most
# (N g T)^2 / (2 M) (5e-15): nothing this benchmark can see.
PIVOT_MASS = 1e20


def finite_or_none(value):
    """JSON has no NaN: a non-finite value is reported as null."""
    return float(value) if math.isfinite(value) else None


def build(x0, length, g, h, tol, threads, angle_hint):
    """The chain's System, its integrator and a context on the CPU platform."""
    links = len(x0) - 1
    system = openmm.System()
    system.addParticle(PIVOT_MASS)
    for _ in range(links):
        system.addParticle(1.0)
    for k in range(1, links + 1):
        system.addConstraint(k - 1, k, length)
    gravity = openmm.CustomExternalForce("m*g*y")
    gravity.addGlobalParameter("g", g)
    gravity.addPerParticleParameter("m")
    gravity.addParticle(0, [0.0])
    for k in range(1, links + 1):
        gravity.addParticle(k, [1.0])
    system.addForce(gravity)
    if angle_hint:
        angles = openmm.HarmonicAngleForce()
        for k in range(1, links):
            a, c = x0[k - 1] - x0[k], x0[k + 1] - x0[k]
            cosine = np.dot(a, c) / (np.linalg.norm(a) * np.linalg.norm(c))
            angles.addAngle(k - 1, k, k + 1, math.acos(np.clip(cosine, -1.0, 1.0)), 0.0)
        system.addForce(angles)
    integrator = openmm.VerletIntegrator(h)
    integrator.setConstraintTolerance(tol)
    platform = openmm.Platform.getPlatformByName("CPU")
    context = openmm.Context(system, integrator, platform, {"Threads": str(threads)})
    return system, integrator, context


def reset(context, x0, v0):
    context.setTime(0.0)
    context.setPositions(x0)
    context.setVelocities(v0)


def constraint_error(context, length):
    positions = context.getState(getPositions=True).getPositions(asNumpy=True)
    x = positions.value_in_unit(unit.nanometer)
    return np.max(np.abs(np.linalg.norm(np.diff(x, axis=0), axis=1) - length)), x


def energy(context):
    state = context.getState(getEnergy=True)
    return (state.getPotentialEnergy() + state.getKineticEnergy()).value_in_unit(
        unit.kilojoule_per_mole
    )


def run(config, chain, tol, angle_hint):
    links, steps = chain["links"], chain["steps"]
    length = config["length"]
    # Particle 0 is the pivot at the origin, at rest; z = 0 throughout.
    x0 = np.zeros((links + 1, 3))
    v0 = np.zeros((links + 1, 3))
    x0[1:, :2] = np.reshape(chain["x"], (links, 2))
    v0[1:, :2] = np.reshape(chain["v"], (links, 2))
    _, integrator, context = build(
        x0, length, config["g"], config["h"], tol, config["threads"], angle_hint
    )
    result = {
        "links": links,
        "tolerance": tol,
        "angle_hint": angle_hint,
        "steps": steps,
        "ns_per_step": [],
        "max_constraint_error": None,
        "max_energy_drift": None,
        "energy0": None,
        "final_x": None,
        "openmm": openmm.__version__,
        "platform": context.getPlatform().getName(),
        "threads": context.getPlatform().getPropertyValue(context, "Threads"),
        "failure": None,
    }
    try:
        measure(config, integrator, context, x0, v0, result)
    except openmm.OpenMMException as failure:
        result["failure"] = str(failure)
    return result


def measure(config, integrator, context, x0, v0, result):
    """The error run and the timed runs, into `result`."""
    steps, length = result["steps"], config["length"]
    reset(context, x0, v0)
    e0 = energy(context)
    result["energy0"] = finite_or_none(e0)
    errors = np.empty(steps + 1)
    drifts = np.empty(steps + 1)
    errors[0], x = constraint_error(context, length)
    drifts[0] = 0.0
    for n in range(1, steps + 1):
        integrator.step(1)
        errors[n], x = constraint_error(context, length)
        drifts[n] = abs(energy(context) - e0) / abs(e0)
    # np.max propagates a NaN.
    result["max_constraint_error"] = finite_or_none(np.max(errors))
    result["max_energy_drift"] = finite_or_none(np.max(drifts))
    result["final_x"] = [finite_or_none(c) for c in x[1:, :2].reshape(-1)]

    for _ in range(config["repeats"]):
        reset(context, x0, v0)
        integrator.step(config["warmup"])
        start = time.perf_counter()
        integrator.step(steps)
        result["ns_per_step"].append((time.perf_counter() - start) * 1e9 / steps)


def main():
    config = json.load(sys.stdin)
    for chain in config["chains"]:
        for angle_hint in config["angle_hints"]:
            for tol in config["tolerances"]:
                print(json.dumps(run(config, chain, tol, angle_hint)), flush=True)


if __name__ == "__main__":
    main()
