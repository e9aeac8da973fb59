//! Inputs of an expression: components of named state vectors and named scalar parameters.

use std::fmt;

/// A symbolic input (a leaf of the graph).
///
/// State vectors are named by the caller (`q`, `v`, `p`, `lambda`, `w` …) and addressed by
/// component; parameters are scalars such as the fields a₁, b₂ of a problem struct.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Input {
    /// Component `index` of the state vector `vector` (e.g. q₀ is `q[0]`).
    Component {
        /// Name of the vector.
        vector: String,
        /// Zero-based component index.
        index: usize,
    },
    /// A named scalar parameter.
    Param(String),
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Component { vector, index } => write!(f, "{vector}[{index}]"),
            Input::Param(name) => f.write_str(name),
        }
    }
}
