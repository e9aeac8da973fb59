// A Hamiltonian DAE needs v and f: from `hamiltonian`, or both given. Each function sees only
// the state vectors it depends on (H, φ, v and f: q, p; u and g: q, p, λ); φ has one component
// per multiplier; the projections derived from φ need its derivatives.
use sparkgen::HamiltonianDae;

#[derive(HamiltonianDae)]
#[hamiltonian_dae(q = [x, y], p = [px, py], lambda = [l], phi = [px - y], velocity = [l, 0.0])]
struct WithoutHamiltonian;

#[derive(HamiltonianDae)]
#[hamiltonian_dae(
    q = [x, y],
    p = [px, py],
    lambda = [l1, l2],
    hamiltonian = x * l1,
    phi = [px - y],
    g = [l1, py * l2],
)]
struct ScopeAndLength;

#[derive(HamiltonianDae)]
#[hamiltonian_dae(q = [x], p = [px], lambda = [l], hamiltonian = x, phi = [abs(px - x)])]
struct NotDifferentiable;

fn main() {}
