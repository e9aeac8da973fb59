//! The initial shape of the hanging chains of the chain benchmarks (`distance_chain` here and
//! `chains` in `runtime/peers`, which include this file), so that both start from one state.

/// Link angles from the vertical and angular rates of an `n`-link chain: a smooth bend
/// `θ_k = ½ sin(π(k + ½)/n)`, at rest but for the last link (rate ½).
pub fn links(n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|k| {
            let s = (k as f64 + 0.5) / n as f64;
            (
                0.5 * (std::f64::consts::PI * s).sin(),
                if k + 1 == n { 0.5 } else { 0.0 },
            )
        })
        .collect()
}
