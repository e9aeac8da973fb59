//! Runge–Kutta tableau families in exact arithmetic.
//!
//! A tableau `(a, b, c)` with `s` stages defines `Q_i = q_n + h Σ_j a_ij V_j`,
//! `q_{n+1} = q_n + h Σ_i b_i V_i`. Nodes are roots of Legendre-type polynomials
//! ([`nodes`]), weights the interpolatory quadrature weights (`B(s)`), and the coefficient
//! matrices come from the simplifying assumptions `C`, `D` or from averaging a tableau with its
//! symplectic conjugate `ā_ij = b_j (b_i − a_ji) / b_i` ([`construct`]).

mod construct;
mod family;
mod nodes;
mod pair;

pub use construct::{build, clean, symplectic_conjugate};
pub use family::{Family, Properties, RInfinity, UpstreamClaim};
pub use nodes::{NodeSet, nodes_and_weights};
pub use pair::{PairKind, PairProperties, PartitionedTableau};

use crate::exact::{LinalgError, Matrix, Num, RootError};

/// A Butcher tableau with exact (rational) or working-precision coefficients.
#[derive(Clone, Debug)]
pub struct Tableau {
    /// The family it belongs to.
    pub family: Family,
    /// The number of stages `s`.
    pub s: usize,
    /// The coefficients `a_ij` (s×s, row-major).
    pub a: Matrix,
    /// The weights `b_i`.
    pub b: Vec<Num>,
    /// The nodes `c_i`.
    pub c: Vec<Num>,
}

impl Tableau {
    /// Whether every coefficient is an exact rational.
    pub fn is_rational(&self) -> bool {
        self.a
            .iter()
            .flatten()
            .chain(&self.b)
            .chain(&self.c)
            .all(Num::is_rational)
    }

    /// The name, e.g. `LobattoIIIA(3)`.
    pub fn name(&self) -> String {
        format!("{}({})", self.family.name(), self.s)
    }
}

/// Failures while constructing a tableau.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableauError {
    /// The family does not exist for this number of stages.
    #[error("{family} is defined for s ≥ {min}, not s = {s}")]
    Stages {
        /// The family's name.
        family: &'static str,
        /// The requested number of stages.
        s: usize,
        /// The smallest valid number of stages.
        min: usize,
    },
    /// Root finding failed (cannot happen for the Legendre-type node polynomials).
    #[error("node polynomial: {0}")]
    Roots(#[from] RootError),
    /// A linear solve failed (a Vandermonde system with repeated nodes, or a zero weight).
    #[error("coefficient system: {0}")]
    Linalg(#[from] LinalgError),
    /// Upstream's SPARK multiplier μ needs a null vector d and `r = s` stages (its index
    /// arithmetic assumes both).
    #[error("{tableau} has no null vector with r = s: upstream's SPARK μ is undefined")]
    NoNullVector {
        /// The tableau's name.
        tableau: String,
    },
    /// The method's residual structure does not apply to the problem kind.
    #[error("{method} is not defined: {reason}")]
    Inapplicable {
        /// The method's family.
        method: String,
        /// Why.
        reason: &'static str,
    },
    /// The symplectic conjugate needs every weight `b_i ≠ 0`.
    #[error("symplectic conjugate undefined: weight b_{index} is zero")]
    ZeroWeight {
        /// The index of the zero weight.
        index: usize,
    },
}
