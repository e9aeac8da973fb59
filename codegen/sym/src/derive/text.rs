//! The text front end: a problem whose expressions are given as strings (a problem file)
//! instead of derive attributes, built by the same lowering and differentiation as the derives
//! and compiled to [`Tape`]s instead of emitted as Rust.
//!
//! Every expression is parsed with the derive attributes' syntax (see [`crate::derive`]), the
//! coordinates are bound like the derive's `q = [...]` (and `v = [...]`), and the parameters
//! play the role of the struct's `f64` fields. The methods are those of the trait the
//! corresponding derive implements, in trait order, each compiled from the same CSE'd kernel the
//! derive emits, so a tape computes bit for bit what the derived method computes.
//!
//! User errors are accumulated (all errors of a problem are reported at once) and located by
//! the caller's id of the offending string and the byte range inside it.

use super::ctxt::{ErrorKind, Errors};
use super::expand::Problem;
use super::extent::Extent;
use super::lower::{Lowerer, PARAMETERS, Parameter, Scope};
use super::parse::{self, Parsed};
use super::{degenerate_lagrangian, holonomic_system, lagrangian};
use crate::{Input, OutputSlot, SlotIndex, Tape};
use proc_macro2::Span;
use std::ops::Range;
use syn::{Expr, Ident};

/// One string of a problem (a coordinate name or an expression) with the caller's `id`, by
/// which errors in it are located.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    /// The caller's identifier of the string.
    pub id: usize,
    /// The string.
    pub source: &'a str,
}

/// A named subexpression of a problem given as text, `name = expression`: the expression may
/// use the coordinates, the parameters and the earlier definitions, and every expression of the
/// problem may use the name (see [`crate::derive`]).
#[derive(Clone, Copy, Debug)]
pub struct Definition<'a> {
    /// The name.
    pub name: Text<'a>,
    /// The expression it stands for.
    pub expression: Text<'a>,
}

/// A user error in a problem given as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// What the error is about.
    pub kind: ErrorKind,
    /// The message (the derive's message for the same mistake).
    pub message: String,
    /// The [`Text::id`] of the offending string and the byte range inside it; `None` when the
    /// error concerns no single string (a length mismatch between lists).
    pub location: Option<(usize, Range<usize>)>,
}

/// One trait method compiled to a tape.
///
/// The tape's input segments are the method's arguments in order (`q`, then `w`, `v` or
/// `lambda`), followed by one segment with the parameter values in the order they were given;
/// its output is the method's value in row-major order.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledMethod {
    /// The trait method's name, e.g. `theta_jacobian`.
    pub name: &'static str,
    /// The state-vector arguments: name and length.
    pub args: Vec<(&'static str, usize)>,
    /// The output's (rows, columns): (1, 1) for a scalar, (n, 1) for a vector.
    pub shape: (usize, usize),
    /// The tape computing the output.
    pub tape: Tape,
}

/// The methods of one problem trait.
#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    /// The trait's const-generic arguments: `[D]` or `[D, M]`.
    pub dims: Vec<usize>,
    /// The required methods, in trait order.
    pub methods: Vec<CompiledMethod>,
}

/// `DegenerateLagrangian<D>` for `L(q, v) = ϑ(q)·v − H(q)` with the coordinates `coordinates`,
/// the named subexpressions `definitions`, the one-form `theta` (one component per coordinate)
/// and the Hamiltonian `hamiltonian`.
pub fn degenerate_lagrangian(
    parameters: &[&str],
    coordinates: &[Text],
    definitions: &[Definition],
    theta: &[Text],
    hamiltonian: Text,
) -> Result<Compiled, Vec<TextError>> {
    let mut front = Front::default();
    let names = front.names(coordinates);
    front.require_lengths("theta", theta.len(), "coordinate", coordinates.len());
    let parsed_theta = front.exprs(theta);
    let hamiltonian = front.expr(hamiltonian);
    let mut lw = Lowerer::new(scope(parameters));
    lw.bind("q", &names, &mut front.errors);
    front.define(&mut lw, definitions);
    let theta: Vec<&Expr> = parsed_theta.iter().map(|e| &e.0).collect();
    let lowered = degenerate_lagrangian::lower(
        lw,
        names.len(),
        &theta,
        Some(&hamiltonian.0),
        Extent::of_all(&theta),
        &mut front.errors,
    );
    // The trees are no longer needed (errors hold their spans): free them before the
    // derivatives, kernels and tapes are built.
    drop(theta);
    drop((parsed_theta, hamiltonian));
    let problem = degenerate_lagrangian::problem(lowered, &mut front.errors);
    front.finish(problem, parameters)
}

/// `Lagrangian<D>` for `L(q, v)` with the coordinates `coordinates`, the velocities
/// `velocities` (one per coordinate), the named subexpressions `definitions` and the Lagrangian
/// `lagrangian`.
pub fn lagrangian(
    parameters: &[&str],
    coordinates: &[Text],
    velocities: &[Text],
    definitions: &[Definition],
    lagrangian: Text,
) -> Result<Compiled, Vec<TextError>> {
    let mut front = Front::default();
    let q_names = front.names(coordinates);
    let v_names = front.names(velocities);
    front.require_lengths(
        "velocities",
        velocities.len(),
        "coordinate",
        coordinates.len(),
    );
    let lagrangian = front.expr(lagrangian);
    let mut lw = Lowerer::new(scope(parameters));
    lw.bind("q", &q_names, &mut front.errors);
    lw.bind("v", &v_names, &mut front.errors);
    front.define(&mut lw, definitions);
    let lowered = lagrangian::lower(lw, q_names.len(), Some(&lagrangian.0), &mut front.errors);
    drop(lagrangian);
    let problem = lagrangian::problem(lowered, &mut front.errors);
    front.finish(problem, parameters)
}

/// `HolonomicSystem<D, M>` for `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0` with the coordinates
/// `coordinates`, the named subexpressions `definitions`, the mass `mass` in the derive's syntax
/// (`m`, `[m₁, …]` or `[[…], …]`; the identity when `None`), the potential `potential` and the
/// constraints `constraints`.
pub fn holonomic_system(
    parameters: &[&str],
    coordinates: &[Text],
    definitions: &[Definition],
    mass: Option<Text>,
    potential: Text,
    constraints: &[Text],
) -> Result<Compiled, Vec<TextError>> {
    let mut front = Front::default();
    let names = front.names(coordinates);
    if constraints.is_empty() {
        front.unlocated("expected at least one constraint");
    }
    let mass = mass.map(|m| front.expr(m));
    let potential = front.expr(potential);
    let constraints = front.exprs(constraints);
    let mut lw = Lowerer::new(scope(parameters));
    lw.bind("q", &names, &mut front.errors);
    front.define(&mut lw, definitions);
    let constraint_refs: Vec<&Expr> = constraints.iter().map(|e| &e.0).collect();
    let lowered = holonomic_system::lower(
        lw,
        names.len(),
        mass.as_ref().map(|m| &m.0),
        Some(&potential.0),
        &constraint_refs,
        Extent::of_all(&constraint_refs),
        &mut front.errors,
    );
    drop(constraint_refs);
    drop((constraints, mass, potential));
    let problem = holonomic_system::problem(lowered, &mut front.errors);
    front.finish(problem, parameters)
}

/// The scope of a problem given as text: its parameters, all usable.
fn scope(parameters: &[&str]) -> Scope {
    let parameters = parameters
        .iter()
        .map(|name| Parameter {
            name: (*name).to_owned(),
            unusable_type: None,
        })
        .collect();
    Scope::new(parameters, PARAMETERS)
}

/// Parsing of the strings, with the errors and the map from parsed spans back to strings.
#[derive(Default)]
struct Front {
    errors: Errors,
    /// The proc-macro2 source file of every parsed string, with the string's id.
    files: Vec<(String, usize)>,
    /// Errors that concern no single string.
    unlocated: Vec<String>,
    /// Parse errors of the strings.
    syntax: Vec<TextError>,
}

impl Front {
    /// Parses each coordinate (or velocity) name; an unparsable one is reported and skipped.
    fn names(&mut self, texts: &[Text]) -> Vec<Ident> {
        texts
            .iter()
            .filter_map(|text| {
                let name = syn::parse_str::<Ident>(text.source);
                self.parsed(*text, name, Ident::span)
            })
            .collect()
    }

    /// Parses the `definitions` and defines them in `lw` (see [`Lowerer::define`]); a
    /// definition whose name does not parse is reported and left out.
    fn define(&mut self, lw: &mut Lowerer, definitions: &[Definition]) {
        let parsed: Vec<(Ident, Parsed)> = definitions
            .iter()
            .filter_map(|definition| {
                let expression = self.expr(definition.expression);
                let name = syn::parse_str::<Ident>(definition.name.source);
                let name = self.parsed(definition.name, name, Ident::span)?;
                Some((name, expression))
            })
            .collect();
        let refs: Vec<(Ident, &Expr)> = parsed.iter().map(|(n, e)| (n.clone(), &e.0)).collect();
        lw.define(&refs, &mut self.errors);
    }

    /// Parses each expression; an unparsable one is reported and replaced by `1` (see [`Front::expr`]).
    fn exprs(&mut self, texts: &[Text]) -> Vec<Parsed> {
        texts.iter().map(|text| self.expr(*text)).collect()
    }

    /// Parses one expression; an unparsable one is reported and replaced by `1` (not `0`, so
    /// that a division by a definition that does not parse is not reported as well).
    fn expr(&mut self, text: Text) -> Parsed {
        let parsed = parse::expression(text.source);
        self.parsed(text, parsed, |e| Extent::of(&e.0).start())
            .unwrap_or_else(|| {
                Parsed(Expr::Lit(syn::ExprLit {
                    attrs: Vec::new(),
                    lit: syn::Lit::Int(syn::LitInt::new("1", Span::call_site())),
                }))
            })
    }

    /// The value of a parsed `text` (its source file, found from the span `start` gives, is
    /// remembered for locating later errors), or `None` after recording the parse error.
    fn parsed<T>(
        &mut self,
        text: Text,
        parsed: syn::Result<T>,
        start: impl Fn(&T) -> Span,
    ) -> Option<T> {
        match parsed {
            Ok(parsed) => {
                self.files.push((start(&parsed).file(), text.id));
                Some(parsed)
            }
            Err(error) => {
                // A parse error is inside the string, or at its end ("unexpected end of input").
                let span = error.span();
                let end = text.source.len();
                let range = if span.file() == Span::call_site().file() {
                    end..end
                } else {
                    span.byte_range()
                };
                self.syntax.push(TextError {
                    kind: ErrorKind::Syntax,
                    message: error.to_string(),
                    location: Some((text.id, range)),
                });
                None
            }
        }
    }

    /// Records a length mismatch between two lists.
    fn require_lengths(&mut self, what: &str, found: usize, per: &str, expected: usize) {
        if found != expected {
            self.unlocated(&format!(
                "expected {expected} entries in `{what}` (one per {per}), found {found}"
            ));
        }
    }

    fn unlocated(&mut self, message: &str) {
        self.unlocated.push(message.to_owned());
    }

    /// The compiled methods, or every error.
    fn finish(self, problem: Problem, parameters: &[&str]) -> Result<Compiled, Vec<TextError>> {
        let Front {
            errors: lowering,
            files,
            unlocated,
            syntax,
        } = self;
        // Where a span of a parsed string lies: (string id, byte range).
        let locate = |span: Span| {
            let file = span.file();
            files
                .iter()
                .find(|(f, _)| *f == file)
                .map(|(_, id)| (*id, span.byte_range()))
        };
        let mut errors: Vec<TextError> = unlocated
            .iter()
            .map(|message| TextError {
                kind: ErrorKind::Invalid,
                message: message.clone(),
                location: None,
            })
            .collect();
        errors.extend(syntax);
        for (kind, error) in lowering.into_vec() {
            for single in error {
                errors.push(TextError {
                    kind,
                    message: single.to_string(),
                    location: locate(single.span()),
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let methods = problem
            .methods
            .iter()
            .map(|method| {
                let (rows, cols) = method.shape();
                let args = method.args().to_vec();
                let tape = Tape::new(
                    &method.kernel(&problem.graph),
                    |input| place(input, &args, parameters),
                    |slot: &OutputSlot| match slot.index {
                        SlotIndex::Scalar => 0,
                        SlotIndex::Vector(i) => i,
                        SlotIndex::Matrix(i, j) => i * cols + j,
                    },
                    rows * cols,
                );
                tape.map(|tape| CompiledMethod {
                    name: method.name(),
                    args,
                    shape: (rows, cols),
                    tape,
                })
            })
            .collect::<Result<Vec<_>, _>>();
        // Every input of a lowered expression is a bound coordinate, a method argument or a
        // parameter, so no input is left unplaced; report it as an error all the same.
        methods
            .map(|methods| Compiled {
                dims: problem.dims.clone(),
                methods,
            })
            .map_err(|unbound| {
                vec![TextError {
                    kind: ErrorKind::Invalid,
                    message: unbound.to_string(),
                    location: None,
                }]
            })
    }
}

/// The tape input of `input`: (argument segment, component) or (parameter segment, position).
fn place(input: &Input, args: &[(&str, usize)], parameters: &[&str]) -> Option<(usize, usize)> {
    match input {
        Input::Component { vector, index } => args
            .iter()
            .position(|(name, len)| name == vector && index < len)
            .map(|segment| (segment, *index)),
        Input::Param(name) => parameters
            .iter()
            .position(|p| p == name)
            .map(|i| (args.len(), i)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(first_id: usize, sources: &[&'a str]) -> Vec<Text<'a>> {
        sources
            .iter()
            .enumerate()
            .map(|(i, source)| Text {
                id: first_id + i,
                source,
            })
            .collect()
    }

    #[test]
    fn errors_are_located_by_string_and_byte_range() {
        let coordinates = texts(0, &["x", "y"]);
        let theta = texts(2, &["y + ln(y) / x", "x * cbrt(y)"]);
        let hamiltonian = Text {
            id: 4,
            source: "a * x + c",
        };
        let errors = degenerate_lagrangian(&["a"], &coordinates, &[], &theta, hamiltonian)
            .expect_err("`cbrt` and `c` are errors");
        let found: Vec<_> = errors.into_iter().map(|e| (e.kind, e.location)).collect();
        assert_eq!(
            found,
            [
                (ErrorKind::UnsupportedFunction, Some((3, 4..8))),
                (ErrorKind::UnknownName, Some((4, 8..9))),
            ]
        );
    }

    #[test]
    fn methods_come_in_trait_order_with_their_shapes() {
        let coordinates = texts(0, &["x", "y", "z"]);
        let constraints = texts(3, &["x * x + y * y + z * z - 1", "z - x"]);
        let potential = Text {
            id: 5,
            source: "g * z",
        };
        let compiled = holonomic_system(&["g"], &coordinates, &[], None, potential, &constraints)
            .expect("a valid problem");
        assert_eq!(compiled.dims, [3, 2]);
        let shapes: Vec<(&str, (usize, usize))> =
            compiled.methods.iter().map(|m| (m.name, m.shape)).collect();
        assert_eq!(
            shapes,
            [
                ("mass_matrix", (3, 3)),
                ("inverse_mass_matrix", (3, 3)),
                ("potential", (1, 1)),
                ("potential_gradient", (3, 1)),
                ("potential_hessian", (3, 3)),
                ("constraints", (2, 1)),
                ("constraint_jacobian", (2, 3)),
                ("constraint_force_derivative", (3, 3)),
                ("constraint_velocity_derivative", (2, 3)),
            ]
        );
        // ∂(Dcᵀλ)/∂q = 2λ₁ I for these constraints: evaluate the tape at λ = (0.25, 7).
        let force = &compiled.methods[7];
        let mut out = vec![f64::NAN; 9];
        let mut registers = Vec::new();
        force.tape.eval(
            &[&[1.0, 2.0, 3.0], &[0.25, 7.0], &[9.81]],
            &mut registers,
            &mut out,
        );
        assert_eq!(out, [0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5]);
    }
}
