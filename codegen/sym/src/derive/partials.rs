//! A vector-valued problem function as trait methods: its value and its Jacobian with respect to
//! each state vector it depends on.

use super::ctxt::Errors;
use super::lower::Lowerer;
use super::method::{Method, Output};
use crate::NodeId;
use quote::ToTokens;

/// `method(args…)` returning `values` and, for each argument `(x, len)` paired with a name in
/// `partials`, that method returning `∂values/∂x` (`values.len() × len`). A failed derivative is
/// reported at the offending call or at `context` (the user's expression) and replaced by zeros.
pub(crate) fn value_and_partials(
    lw: &mut Lowerer,
    method: &'static str,
    args: &[(&'static str, usize)],
    partials: &[&'static str],
    values: Vec<NodeId>,
    context: &dyn ToTokens,
    errors: &mut Errors,
) -> Vec<Method> {
    let n = values.len();
    let mut methods = Vec::with_capacity(partials.len() + 1);
    for (&(wrt, len), name) in args.iter().zip(partials) {
        let vars = lw.graph.vector(wrt, len);
        let jacobian = lw.graph.jacobian(&values, &vars);
        let jacobian = lw.checked(jacobian, context, errors, |g| Lowerer::zeros(g, n, len));
        methods.push(Method::new(name, args, Output::Matrix(jacobian)));
    }
    methods.insert(0, Method::new(method, args, Output::Vector(values)));
    methods
}
