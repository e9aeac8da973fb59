//! Lowering of the user's `syn::Expr` into the symbolic [`Graph`].
//!
//! Accepted: numeric literals, names of coordinates and parameters (`f64` fields), unary `-`,
//! binary `+ - * /`, parentheses, and the functions of [`Func`] in both call forms `f(x, …)` and
//! `x.f(…)`. Every error is recorded at its span and lowering goes on with a placeholder `0`,
//! so all errors of an attribute are reported in one compile.
//!
//! # Values that are never finite
//!
//! One rule, checked on every number, operation and call as it is lowered: a subexpression
//! whose value is never finite is an error at that subexpression. Such a subexpression is
//!
//! - constant (it depends on no coordinate and no parameter) with the value NaN or ±∞ in
//!   `f64`: `1/0`, `1e308 * 1e308`, `ln(0)`, `sqrt(-1)`, `1e400`; or
//! - a quotient whose divisor is the constant 0, once folded: `0/0`, `q / (q - q)`,
//!   `(q - q) / (q - q)` (its value is ±∞ or NaN whatever the dividend).
//!
//! Every operand is checked when it is lowered, before the operation using it is built, and a
//! quotient's divisor before the quotient is: the graph's identities 0 · x = 0, 0 / x = 0,
//! x − x = 0 and x / x = 1 hold for finite x only and would otherwise make `0 * (1/0)`, `0/0`
//! and `(q - q)/(q - q)` vanish or turn into 1. An operand that is never finite is refused (and
//! lowered as `0`), so every folding the graph performs here is one of finite values.

use super::ast::Input;
use super::ctxt::{ErrorKind, Errors};
use super::extent::Extent;
use super::parse::MAX_NESTING;
use crate::{DiffError, Func, Graph, Matrix, NodeId, Rational};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use syn::{BinOp, Expr, Ident, Lit, UnOp};

/// A name expressions may use as a parameter (a struct field, or a parameter of a problem file).
pub(crate) struct Parameter {
    /// The name.
    pub(crate) name: String,
    /// `None` for a usable (`f64`) parameter; otherwise the type that makes it unusable, for the
    /// message.
    pub(crate) unusable_type: Option<String>,
}

/// How the parameters of a scope are called in messages.
pub(crate) struct Vocabulary {
    /// One of them, e.g. "field".
    pub(crate) singular: &'static str,
    /// The usable ones, e.g. "`f64` fields".
    pub(crate) plural: &'static str,
}

/// The parameters of a derive: the struct's fields.
pub(crate) const FIELDS: Vocabulary = Vocabulary {
    singular: "field",
    plural: "`f64` fields",
};

/// The parameters of a problem given as text.
pub(crate) const PARAMETERS: Vocabulary = Vocabulary {
    singular: "parameter",
    plural: "parameters",
};

/// A name bound to a component of a state vector.
struct Coordinate {
    /// The user's name, e.g. `x`.
    name: Ident,
    /// The state vector it is a component of, e.g. `q`.
    vector: String,
    /// The graph input it stands for.
    node: NodeId,
}

/// The function whose expressions are being lowered, when it depends on some of the state
/// vectors only (`ϑ(q, v)` of an implicit DAE may not use the components of `p` or `λ`).
struct Restriction {
    /// The function as messages name it, e.g. `theta(q, v)`.
    function: String,
    /// The state vectors it depends on.
    vectors: Vec<String>,
}

/// The names an expression may use: coordinates (bound to state-vector components) and
/// parameters (the struct's fields, or the parameters of a problem file).
pub(crate) struct Scope {
    coordinates: Vec<Coordinate>,
    parameters: Vec<Parameter>,
    /// The position of every parameter in `parameters`, by name.
    parameter_index: HashMap<String, usize>,
    /// The named subexpressions, in the order they are defined.
    definitions: Vec<Definition>,
    /// The position of every definition in `definitions`, by name.
    definition_index: HashMap<String, usize>,
    /// While lowering a definition: its position (it may use the earlier ones only).
    defining: Option<usize>,
    vocabulary: Vocabulary,
    /// While lowering a function of some of the state vectors: that function.
    restriction: Option<Restriction>,
}

/// A named subexpression: a name bound to one node of the graph, which every use shares.
struct Definition {
    /// The user's name, e.g. `b`.
    name: Ident,
    /// Its node, once lowered.
    node: Option<NodeId>,
}

/// Why the value of a subexpression is never finite (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
enum NeverFinite {
    /// A quotient whose divisor is the constant 0: ±∞ or NaN whatever the dividend.
    DivisionByZero,
    /// A subexpression that depends on no coordinate and no parameter, with this value (NaN or
    /// ±∞ in `f64`).
    Constant(f64),
}

impl fmt::Display for NeverFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NeverFinite::DivisionByZero => f.write_str(
                "division by zero: the divisor is the constant 0, so the quotient is never finite",
            ),
            NeverFinite::Constant(value) => write!(
                f,
                "this subexpression is constant and not finite: its value is {value}"
            ),
        }
    }
}

/// The most names an "unknown identifier" message lists of each sort (coordinates, parameters,
/// definitions), so that the messages of a problem take space linear in its size.
const LISTED_NAMES: usize = 16;

impl Scope {
    /// A scope with `parameters` and no coordinates yet.
    pub(crate) fn new(parameters: Vec<Parameter>, vocabulary: Vocabulary) -> Self {
        let parameter_index = parameters
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
        Scope {
            coordinates: Vec::new(),
            parameters,
            parameter_index,
            definitions: Vec::new(),
            definition_index: HashMap::new(),
            defining: None,
            vocabulary,
            restriction: None,
        }
    }

    /// A scope with the struct's fields as parameters (usable when `f64`).
    pub(crate) fn of_struct(input: &Input) -> Self {
        let parameters = input
            .fields
            .iter()
            .map(|f| {
                let ty = &f.ty;
                Parameter {
                    name: f.name.to_string(),
                    unusable_type: (!f.numeric).then(|| quote::quote!(#ty).to_string()),
                }
            })
            .collect();
        Scope::new(parameters, FIELDS)
    }

    /// The parameter named `name`, if any.
    fn parameter(&self, name: &Ident) -> Option<&Parameter> {
        let index = *self.parameter_index.get(&name.to_string())?;
        self.parameters.get(index)
    }

    /// The position of the definition named `name`, if any.
    fn definition(&self, name: &Ident) -> Option<usize> {
        self.definition_index.get(&name.to_string()).copied()
    }

    /// Binds `names` to the components of the state vector `vector` (`q`, `v`, …).
    ///
    /// A name that is already a coordinate or a parameter is reported and skipped.
    pub(crate) fn bind(
        &mut self,
        vector: &str,
        names: &[Ident],
        graph: &mut Graph,
        errors: &mut Errors,
    ) {
        for (i, name) in names.iter().enumerate() {
            if self.coordinates.iter().any(|c| &c.name == name) {
                errors.spanned(name, format!("duplicate name `{name}`"));
            } else if self.parameter(name).is_some() {
                errors.spanned(
                    name,
                    format!(
                        "`{name}` names both a coordinate and a {}; rename one of them",
                        self.vocabulary.singular
                    ),
                );
            } else {
                self.coordinates.push(Coordinate {
                    name: name.clone(),
                    vector: vector.to_owned(),
                    node: graph.component(vector, i),
                });
            }
        }
    }

    /// The function being lowered, when it does not depend on the state vector `vector`.
    fn excluding(&self, vector: &str) -> Option<&str> {
        self.restriction
            .as_ref()
            .filter(|r| !r.vectors.iter().any(|v| v == vector))
            .map(|r| r.function.as_str())
    }

    /// The names in scope (the coordinates of the visible state vectors only), for "unknown
    /// identifier" messages.
    fn describe(&self) -> String {
        let coordinates = self
            .coordinates
            .iter()
            .filter(|c| self.excluding(&c.vector).is_none())
            .map(|c| &c.name);
        let parameters = self
            .parameters
            .iter()
            .filter(|p| p.unusable_type.is_none())
            .map(|p| &p.name);
        // While a definition is lowered, only the earlier ones are usable.
        let usable = self.defining.unwrap_or(self.definitions.len());
        let definitions = self.definitions[..usable].iter().map(|d| &d.name);
        let mut text = format!("coordinates are {}", listed(coordinates));
        for (sort, names) in [
            (self.vocabulary.plural, listed(parameters)),
            ("definitions", listed(definitions)),
        ] {
            if !names.is_empty() {
                text.push_str(&format!("; {sort} are {names}"));
            }
        }
        text
    }
}

/// `` `a`, `b`, … `` for messages: at most [`LISTED_NAMES`] names, then how many more there are.
fn listed<T: std::fmt::Display>(names: impl Iterator<Item = T>) -> String {
    let mut text = String::new();
    let mut count = 0;
    for name in names {
        if count < LISTED_NAMES {
            if count > 0 {
                text.push_str(", ");
            }
            text.push_str(&format!("`{name}`"));
        }
        count += 1;
    }
    if count > LISTED_NAMES {
        text.push_str(&format!(" and {} more", count - LISTED_NAMES));
    }
    text
}

/// Lowers expressions into one graph, remembering the span of every function call so that a
/// later "not differentiable" error can point at the call.
pub(crate) struct Lowerer {
    /// The graph all expressions of the derive share.
    pub(crate) graph: Graph,
    /// Names in scope.
    pub(crate) scope: Scope,
    /// The extent of the first call that created each call node (errors span all of it).
    calls: BTreeMap<NodeId, Extent>,
    /// Nodes already reported as not differentiable (each is reported once).
    reported: BTreeSet<NodeId>,
    /// How many calls of [`Lowerer::lower`] are under way (see [`MAX_DEPTH`]).
    depth: usize,
    /// Whether the expression being lowered was reported as nested too deeply.
    too_deep: bool,
}

/// The deepest recursion of the lowering: one level per nested operand that is neither the
/// left operand of a chain of binary operators nor under a run of signs nor inside
/// parentheses (those are walked by loops). An expression nested deeper is an error at the
/// operand that exceeds it (text reaches at most four levels per group nesting the parser
/// allows; a derive's attribute is held to the same bound).
const MAX_DEPTH: usize = 4 * MAX_NESTING;

impl Lowerer {
    /// A lowerer over an empty graph with the names of `scope`.
    pub(crate) fn new(scope: Scope) -> Self {
        Lowerer {
            graph: Graph::new(),
            scope,
            calls: BTreeMap::new(),
            reported: BTreeSet::new(),
            depth: 0,
            too_deep: false,
        }
    }

    /// Binds coordinate names (see [`Scope::bind`]).
    pub(crate) fn bind(&mut self, vector: &str, names: &[Ident], errors: &mut Errors) {
        self.scope.bind(vector, names, &mut self.graph, errors);
    }

    /// Defines the named subexpressions `definitions` (name and expression, in order): each
    /// expression is lowered once, in the scope of the coordinates, the parameters and the
    /// earlier definitions, and every later use of its name (in later definitions and in every
    /// expression) is its node, so the graph shares it and differentiates it once. A name that
    /// is already a coordinate, a parameter or a definition is reported at the name and not
    /// defined; using a definition in itself or in an earlier one is reported at the use.
    pub(crate) fn define(&mut self, definitions: &[(Ident, &Expr)], errors: &mut Errors) {
        let mut defined = Vec::with_capacity(definitions.len());
        for (name, expr) in definitions {
            let clash = if self.scope.coordinates.iter().any(|c| &c.name == name) {
                Some("a coordinate".to_owned())
            } else if self.scope.parameter(name).is_some() {
                Some(format!("a {}", self.scope.vocabulary.singular))
            } else if self.scope.definition(name).is_some() {
                Some("an earlier definition".to_owned())
            } else {
                None
            };
            match clash {
                Some(other) => errors.spanned(
                    name,
                    format!("the definition `{name}` has the name of {other}; rename one of them"),
                ),
                None => {
                    let index = self.scope.definitions.len();
                    self.scope.definition_index.insert(name.to_string(), index);
                    self.scope.definitions.push(Definition {
                        name: name.clone(),
                        node: None,
                    });
                    defined.push((index, *expr));
                }
            }
        }
        for (index, expr) in defined {
            self.scope.defining = Some(index);
            let node = self.lower(expr, errors);
            self.scope.definitions[index].node = Some(node);
        }
        self.scope.defining = None;
    }

    /// Lowers `expr`, which must not depend on any coordinate (`what` names it in the error,
    /// e.g. "the mass matrix"); one that does is reported at `expr` and gives `None`.
    pub(crate) fn lower_constant(
        &mut self,
        expr: &Expr,
        what: &str,
        errors: &mut Errors,
    ) -> Option<NodeId> {
        let node = self.lower(expr, errors);
        let deps = self.graph.deps(node);
        let Some(coordinate) = self
            .scope
            .coordinates
            .iter()
            .find(|c| deps.binary_search(&c.node).is_ok())
        else {
            return Some(node);
        };
        let message = format!(
            "{what} must be constant: it may depend on the {} only, not on the coordinate `{}`",
            self.scope.vocabulary.plural, coordinate.name
        );
        errors.spanned(Extent::of(expr), message);
        None
    }

    /// The extent of the call that created `node`, if it came from a call.
    fn call_extent(&self, node: NodeId) -> Option<Extent> {
        self.calls.get(&node).copied()
    }

    /// The value of a derivative computation; on failure the error is recorded at the offending
    /// call (or at `context`, the user expression being differentiated) and `zero` is returned.
    pub(crate) fn checked<T>(
        &mut self,
        result: Result<T, DiffError>,
        context: &dyn ToTokens,
        errors: &mut Errors,
        zero: impl FnOnce(&mut Graph) -> T,
    ) -> T {
        result.unwrap_or_else(|error| {
            let (node, kind) = match error {
                DiffError::NotDifferentiable { node, .. } => {
                    (Some(node), ErrorKind::NotDifferentiable)
                }
                DiffError::NotAnInput(_) | DiffError::LengthMismatch { .. } => {
                    (None, ErrorKind::Invalid)
                }
            };
            if node.is_none_or(|n| self.reported.insert(n)) {
                match node.and_then(|n| self.call_extent(n)) {
                    Some(call) => errors.spanned_as(kind, call, &error),
                    None => errors.spanned_as(kind, context, &error),
                }
            }
            zero(&mut self.graph)
        })
    }

    /// The `rows × cols` zero matrix.
    pub(crate) fn zeros(graph: &mut Graph, rows: usize, cols: usize) -> Matrix {
        let zero = graph.int(0);
        Matrix::from_row_major(rows, cols, vec![zero; rows * cols])
            .expect("rows · cols entries were supplied")
    }

    /// `nodes` cut or padded with zeros to length `len` (after a length error was reported).
    pub(crate) fn fit(&mut self, mut nodes: Vec<NodeId>, len: usize) -> Vec<NodeId> {
        let zero = self.graph.int(0);
        nodes.resize(len, zero);
        nodes
    }

    /// Lowers every expression of `exprs` as a component of `function` (its name in messages),
    /// which depends on the state vectors `vectors` only: a coordinate of any other vector is
    /// reported where it is used, like an unknown identifier.
    pub(crate) fn lower_function(
        &mut self,
        function: &str,
        vectors: &[&str],
        exprs: &[&Expr],
        errors: &mut Errors,
    ) -> Vec<NodeId> {
        self.scope.restriction = Some(Restriction {
            function: function.to_owned(),
            vectors: vectors.iter().map(|v| (*v).to_owned()).collect(),
        });
        let nodes = self.lower_all(exprs, errors);
        self.scope.restriction = None;
        nodes
    }

    /// Lowers every expression of `exprs`.
    pub(crate) fn lower_all(&mut self, exprs: &[&Expr], errors: &mut Errors) -> Vec<NodeId> {
        exprs.iter().map(|e| self.lower(e, errors)).collect()
    }

    /// Lowers one expression; errors are recorded and replaced by `0`.
    ///
    /// Chains of binary operators are lowered left operand first, then each right operand
    /// followed by its operation (the order of a recursive walk, without its depth); runs of
    /// signs and of parentheses likewise.
    pub(crate) fn lower(&mut self, expr: &Expr, errors: &mut Errors) -> NodeId {
        if self.depth >= MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                errors.spanned(
                    Extent::of(expr),
                    format!(
                        "the expression is nested too deeply: more than {MAX_DEPTH} levels of \
                         operands, parentheses and calls"
                    ),
                );
            }
            return self.graph.int(0);
        }
        self.depth += 1;
        let node = self.lower_nested(expr, errors);
        self.depth -= 1;
        if self.depth == 0 {
            self.too_deep = false;
        }
        node
    }

    fn lower_nested(&mut self, mut expr: &Expr, errors: &mut Errors) -> NodeId {
        while let Expr::Paren(syn::ExprParen { expr: inner, .. })
        | Expr::Group(syn::ExprGroup { expr: inner, .. }) = expr
        {
            expr = inner;
        }
        match expr {
            Expr::Lit(lit) => {
                let since = errors.len();
                let number = self.literal(&lit.lit, errors);
                self.finite(expr, Ok(number), since, errors)
            }
            Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {
                self.name(&path.path.segments[0].ident, errors)
            }
            Expr::Unary(syn::ExprUnary {
                op: UnOp::Neg(_), ..
            }) => {
                let mut signs = 0;
                while let Expr::Unary(syn::ExprUnary {
                    op: UnOp::Neg(_),
                    expr: inner,
                    ..
                }) = expr
                {
                    signs += 1;
                    expr = inner;
                }
                let mut x = self.lower(expr, errors);
                for _ in 0..signs {
                    x = self.graph.neg(x);
                }
                x
            }
            Expr::Binary(_) => {
                let since = errors.len();
                let mut chain = Vec::new();
                while let Expr::Binary(binary) = expr {
                    chain.push((expr, binary));
                    expr = &binary.left;
                }
                let mut a = self.lower(expr, errors);
                for (step, binary) in chain.into_iter().rev() {
                    let b = self.lower(&binary.right, errors);
                    let node = match binary.op {
                        BinOp::Add(_) => Ok(self.graph.add(a, b)),
                        BinOp::Sub(_) => Ok(self.graph.sub(a, b)),
                        BinOp::Mul(_) => Ok(self.graph.mul(a, b)),
                        BinOp::Div(_) if self.graph.is_zero(b) => Err(NeverFinite::DivisionByZero),
                        BinOp::Div(_) => Ok(self.graph.div(a, b)),
                        op => Ok(self.unsupported(
                            op,
                            "unsupported operator; use `+`, `-`, `*`, `/` or `powi`/`powf`",
                            errors,
                        )),
                    };
                    a = self.finite(step, node, since, errors);
                }
                a
            }
            Expr::Call(call) => {
                let Expr::Path(path) = &*call.func else {
                    return self.unsupported(&call.func, "expected a function name", errors);
                };
                let Some(name) = path.path.get_ident().filter(|_| path.qself.is_none()) else {
                    return self.unsupported(
                        path,
                        "expected a plain function name like `sin`",
                        errors,
                    );
                };
                let args: Vec<&Expr> = call.args.iter().collect();
                self.call(name, &args, expr, errors)
            }
            Expr::MethodCall(call) => {
                if let Some(turbofish) = &call.turbofish {
                    return self.unsupported(
                        turbofish,
                        "generic arguments are not supported here",
                        errors,
                    );
                }
                let args: Vec<&Expr> = std::iter::once(&*call.receiver).chain(&call.args).collect();
                self.call(&call.method, &args, expr, errors)
            }
            other => {
                let message = format!(
                    "unsupported expression; expected arithmetic on numbers, coordinates and {}",
                    self.scope.vocabulary.plural
                );
                self.unsupported(other, &message, errors)
            }
        }
    }

    /// The node of the subexpression `subexpression` (`node`, or why its value is never
    /// finite), or an error at it and a placeholder `0` when its value is never finite: the
    /// rule of the module documentation.
    ///
    /// `since` is the number of errors recorded when the lowering of the subexpression began:
    /// one with errors of its own was lowered from their placeholders (`0`), so its value says
    /// nothing about the user's expression and it is not checked (`x / zz` with an unknown `zz`
    /// is one error, not two).
    fn finite(
        &mut self,
        subexpression: &Expr,
        node: Result<NodeId, NeverFinite>,
        since: usize,
        errors: &mut Errors,
    ) -> NodeId {
        let never = match node {
            Ok(node) => match self.graph.value(node) {
                Some(value) if !value.is_finite() && errors.len() == since => {
                    NeverFinite::Constant(value)
                }
                _ => return node,
            },
            Err(never) => never,
        };
        if errors.len() == since {
            errors.spanned_as(ErrorKind::NotFinite, Extent::of(subexpression), never);
        }
        self.graph.int(0)
    }

    fn unsupported(&mut self, tokens: impl ToTokens, message: &str, errors: &mut Errors) -> NodeId {
        errors.spanned(tokens, message);
        self.graph.int(0)
    }

    fn literal(&mut self, lit: &Lit, errors: &mut Errors) -> NodeId {
        let (digits, suffix) = match lit {
            Lit::Int(int) => (int.base10_digits(), int.suffix()),
            Lit::Float(float) => (float.base10_digits(), float.suffix()),
            other => return self.unsupported(other, "expected a number", errors),
        };
        if !matches!(suffix, "" | "f64") {
            return self.unsupported(lit, "numbers must be unsuffixed or `f64`", errors);
        }
        match Rational::parse_decimal(digits) {
            Some(exact) => self.graph.rational(exact),
            None => match digits.parse::<f64>() {
                Ok(x) => self.graph.float(x),
                Err(_) => self.unsupported(lit, "number out of range", errors),
            },
        }
    }

    fn name(&mut self, name: &Ident, errors: &mut Errors) -> NodeId {
        if let Some(coordinate) = self.scope.coordinates.iter().find(|c| &c.name == name) {
            let Some(function) = self.scope.excluding(&coordinate.vector) else {
                return coordinate.node;
            };
            let message = format!(
                "`{name}` is a component of `{}`, which `{function}` does not depend on; {}",
                coordinate.vector,
                self.scope.describe()
            );
            errors.spanned_as(ErrorKind::UnknownName, name, message);
            return self.graph.int(0);
        }
        if let Some(index) = self.scope.definition(name) {
            return self.use_definition(name, index, errors);
        }
        match self.scope.parameter(name) {
            Some(Parameter {
                unusable_type: None,
                ..
            }) => self.graph.param(&name.to_string()),
            Some(Parameter {
                unusable_type: Some(ty),
                ..
            }) => {
                let message = format!(
                    "field `{name}` has type `{ty}`; only `f64` fields can be used as parameters"
                );
                self.unsupported(name, &message, errors)
            }
            None => {
                let message = format!("unknown identifier `{name}`; {}", self.scope.describe());
                errors.spanned_as(ErrorKind::UnknownName, name, message);
                self.graph.int(0)
            }
        }
    }

    /// The node of the definition at `index`, used as `name`: an error when it is not defined
    /// yet (a definition using itself or a later one), or when it depends on a coordinate of a
    /// state vector the function being lowered does not depend on.
    fn use_definition(&mut self, name: &Ident, index: usize, errors: &mut Errors) -> NodeId {
        let Some(node) = self.scope.definitions[index].node else {
            let message = match self.scope.defining {
                Some(current) if current == index => {
                    format!("the definition `{name}` uses itself")
                }
                Some(current) => format!(
                    "the definition `{}` uses `{name}`, which is defined after it; a definition \
                     may use only earlier ones",
                    self.scope.definitions[current].name
                ),
                None => format!("`{name}` is used before it is defined"),
            };
            errors.spanned_as(ErrorKind::UnknownName, name, message);
            return self.graph.int(0);
        };
        let deps = self.graph.deps(node);
        let excluded = self.scope.coordinates.iter().find_map(|c| {
            let function = self.scope.excluding(&c.vector)?;
            deps.binary_search(&c.node).is_ok().then_some((c, function))
        });
        let Some((coordinate, function)) = excluded else {
            return node;
        };
        let message = format!(
            "the definition `{name}` depends on `{}`, a component of `{}`, which `{function}` \
             does not depend on; {}",
            coordinate.name,
            coordinate.vector,
            self.scope.describe()
        );
        errors.spanned_as(ErrorKind::UnknownName, name, message);
        self.graph.int(0)
    }

    fn call(&mut self, name: &Ident, args: &[&Expr], expr: &Expr, errors: &mut Errors) -> NodeId {
        let since = errors.len();
        let lowered = self.lower_all(args, errors);
        let Some(func) = Func::from_name(&name.to_string()) else {
            let known: Vec<&str> = Func::names().collect();
            let message = format!(
                "unsupported function `{name}`; supported are {}",
                known.join(", ")
            );
            errors.spanned_as(ErrorKind::UnsupportedFunction, name, message);
            return self.graph.int(0);
        };
        match self.graph.call(func, &lowered) {
            Ok(node) => {
                self.calls.entry(node).or_insert_with(|| Extent::of(expr));
                self.finite(expr, Ok(node), since, errors)
            }
            Err(error) => self.unsupported(name, &error.to_string(), errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derive::parse;

    /// Lowers `source` with the coordinates `q1`, `q2` and the parameter `a`: the node, and
    /// every error as (kind, byte offset in `source`, message).
    fn lowered(source: &str) -> (Lowerer, NodeId, Vec<(ErrorKind, usize, String)>) {
        let parameter = Parameter {
            name: "a".to_owned(),
            unusable_type: None,
        };
        let mut lw = Lowerer::new(Scope::new(vec![parameter], PARAMETERS));
        let mut errors = Errors::default();
        let names = ["q1", "q2"].map(|n| Ident::new(n, proc_macro2::Span::call_site()));
        lw.bind("q", &names, &mut errors);
        let parsed = parse::expression(source).expect("the expression parses");
        let node = lw.lower(&parsed.0, &mut errors);
        let errors = errors
            .into_vec()
            .into_iter()
            .map(|(kind, e)| (kind, e.span().byte_range().start, e.to_string()))
            .collect();
        (lw, node, errors)
    }

    /// The single error of lowering `source`: (byte offset, message).
    fn never_finite(source: &str) -> (usize, String) {
        let (_, _, errors) = lowered(source);
        match errors.as_slice() {
            [(ErrorKind::NotFinite, offset, message)] => (*offset, message.clone()),
            other => panic!("`{source}`: one NotFinite error expected, found {other:?}"),
        }
    }

    /// Every subexpression whose value is never finite is an error at its first byte, before
    /// 0 · x = 0, 0 / x = 0, x − x = 0 or x / x = 1 could fold it away.
    #[test]
    fn values_that_are_never_finite_are_located_errors() {
        let division = "division by zero";
        let constant = "constant and not finite";
        for (source, offset, message) in [
            // 0 / 0, which `div` folds to 0.
            ("q2 + 0/0 * q1", 5, division),
            // 1 / 0 under 0 · x = 0.
            ("q2 + 0*(1/0)*q1", 8, division),
            // x − x = 0 makes both a 0, and x / x = 1 (or 0 / x = 0) would fold the quotient.
            ("q2 + (q1-q1)/(q1-q1)", 5, division),
            ("q2 + q1/(q1 - q1)", 5, division),
            ("q2 + a/(a - a)", 5, division),
            // Constant overflow, literal overflow and function values that are not finite.
            ("q2 + 1e308*1e308*q1", 5, "its value is inf"),
            ("q2 + 1e400 * q1", 5, constant),
            ("q2 + 0 * ln(0)", 9, "its value is -inf"),
            ("q2 + 0 * sqrt(-1)", 9, "its value is NaN"),
            ("q2 + 0 * (q1 - q1).ln()", 9, constant),
            ("q2 + q1 * powi(q1 - q1, -1)", 10, constant),
            ("q2 + exp(1000) * 0", 5, constant),
        ] {
            let (found, text) = never_finite(source);
            assert_eq!(found, offset, "`{source}`: {text}");
            assert!(text.contains(message), "`{source}`: {text}");
        }
    }

    /// A subexpression with an error of its own is lowered from placeholders `0` and not
    /// checked: one error each, at the unknown name or function.
    #[test]
    fn placeholders_of_errors_are_not_checked() {
        for (source, offset) in [("q1 / zz", 5), ("ln(zz) * q1", 3), ("q1 / cbrt(q2)", 5)] {
            let (_, _, errors) = lowered(source);
            let found: Vec<(ErrorKind, usize)> = errors.iter().map(|e| (e.0, e.1)).collect();
            assert_eq!(found.len(), 1, "`{source}`: {errors:?}");
            assert_ne!(found[0].0, ErrorKind::NotFinite, "`{source}`");
            assert_eq!(found[0].1, offset, "`{source}`");
        }
    }

    /// The derives lower through the same rule: `0.0 / 0.0` in an attribute is a compile error.
    #[test]
    fn derives_refuse_values_that_are_never_finite() {
        let input = quote::quote! {
            #[derive(DegenerateLagrangian)]
            #[lagrangian(q = [x, y], theta = [y, x], hamiltonian = y + 0.0 / 0.0 * x)]
            struct Problem {}
        };
        let expansion = crate::derive::expand_degenerate_lagrangian(input).to_string();
        assert!(
            expansion.contains("compile_error") && expansion.contains("division by zero"),
            "{expansion}"
        );
    }

    /// The identities of finite values still fold the expressions that need them.
    #[test]
    fn finite_identities_still_fold() {
        for (source, value) in [
            ("0 * q1", 0.0),
            ("q1 - q1", 0.0),
            ("0 / q1", 0.0),
            ("q1 / q1", 1.0),
            ("(q1 - q1) * ln(q2)", 0.0),
            ("1/2 + 0 * a", 0.5),
        ] {
            let (lw, node, errors) = lowered(source);
            assert!(errors.is_empty(), "`{source}`: {errors:?}");
            assert_eq!(
                lw.graph.as_const(node).map(|c| c.to_f64()),
                Some(value),
                "`{source}`"
            );
        }
        let (lw, node, errors) = lowered("q2 / (1 - cos(1)) + ln(2)");
        assert!(errors.is_empty(), "{errors:?}");
        assert!(lw.graph.value(node).is_none());
    }

    /// An expression nested beyond `MAX_DEPTH` (a derive's, which syn parsed) is one error.
    #[test]
    fn nesting_beyond_the_depth_limit_is_one_error() {
        // syn's own parser needs a larger stack than a test thread's for this depth.
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(nested_beyond_the_limit)
            .expect("a thread")
            .join()
            .expect("no panic");
    }

    fn nested_beyond_the_limit() {
        let source = format!(
            "{}x{}",
            "sin(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        let expr: Expr = syn::parse_str(&source).expect("syn parses it");
        let mut lw = Lowerer::new(Scope::new(Vec::new(), PARAMETERS));
        let mut errors = Errors::default();
        let x = syn::Ident::new("x", proc_macro2::Span::call_site());
        lw.bind("q", &[x], &mut errors);
        lw.lower(&expr, &mut errors);
        let errors = errors.into_vec();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].1.to_string().contains("nested too deeply"));
        let start = 4 * MAX_DEPTH;
        assert_eq!(errors[0].1.span().byte_range().start, start);
    }
}
