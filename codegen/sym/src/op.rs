//! The operator table: for every operation of the graph, its name, arity, evaluation,
//! precedence and emission live here and nowhere else; its partial derivatives, which build
//! graph expressions, live with the differentiation (`crate::diff`).

use crate::real::Real;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// An operation of the expression graph (an interior node).
///
/// Unary: `Neg`, `Powi(k)` (xᵏ, k an integer), and the one-argument functions.
/// Binary: `Add`, `Sub`, `Mul`, `Div`, `Powf` (xʸ), `Atan2` (atan2(y, x)), `Hypot` (√(a² + b²)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    /// −x.
    Neg,
    /// a + b.
    Add,
    /// a − b.
    Sub,
    /// a · b.
    Mul,
    /// a / b.
    Div,
    /// xᵏ with the integer exponent k.
    Powi(i32),
    /// xʸ.
    Powf,
    /// √x.
    Sqrt,
    /// eˣ.
    Exp,
    /// ln x.
    Ln,
    /// sin x.
    Sin,
    /// cos x.
    Cos,
    /// tan x.
    Tan,
    /// arcsin x.
    Asin,
    /// arccos x.
    Acos,
    /// arctan x.
    Atan,
    /// atan2(y, x), the angle of (x, y).
    Atan2,
    /// sinh x.
    Sinh,
    /// cosh x.
    Cosh,
    /// tanh x.
    Tanh,
    /// |x| (not differentiable).
    Abs,
    /// √(a² + b²).
    Hypot,
}

/// A function a user may call by name, as `f(x, …)` or as a method `x.f(…)` (the receiver
/// is the first argument, as for `f64`: `y.atan2(x)` is atan2(y, x), `x.powi(2)` is x²).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Func {
    /// `powi(x, k)`: xᵏ; k must be an integer constant.
    Powi,
    /// `powf(x, y)`: xʸ.
    Powf,
    /// `sqrt(x)`.
    Sqrt,
    /// `exp(x)`.
    Exp,
    /// `ln(x)`, also spelled `log(x)`: natural logarithm.
    Ln,
    /// `sin(x)`.
    Sin,
    /// `cos(x)`.
    Cos,
    /// `tan(x)`.
    Tan,
    /// `asin(x)`.
    Asin,
    /// `acos(x)`.
    Acos,
    /// `atan(x)`.
    Atan,
    /// `atan2(y, x)`.
    Atan2,
    /// `sinh(x)`.
    Sinh,
    /// `cosh(x)`.
    Cosh,
    /// `tanh(x)`.
    Tanh,
    /// `abs(x)`.
    Abs,
    /// `hypot(a, b)`.
    Hypot,
}

/// Name → function table (canonical names first, then aliases).
const FUNCS: &[(&str, Func)] = &[
    ("powi", Func::Powi),
    ("powf", Func::Powf),
    ("sqrt", Func::Sqrt),
    ("exp", Func::Exp),
    ("ln", Func::Ln),
    ("sin", Func::Sin),
    ("cos", Func::Cos),
    ("tan", Func::Tan),
    ("asin", Func::Asin),
    ("acos", Func::Acos),
    ("atan", Func::Atan),
    ("atan2", Func::Atan2),
    ("sinh", Func::Sinh),
    ("cosh", Func::Cosh),
    ("tanh", Func::Tanh),
    ("abs", Func::Abs),
    ("hypot", Func::Hypot),
    ("log", Func::Ln),
];

impl Func {
    /// Looks a function up by the name used in `f(x)` or `x.f()` (`log` means ln).
    pub fn from_name(name: &str) -> Option<Func> {
        FUNCS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// The canonical name (`ln` for `log`).
    pub fn name(self) -> &'static str {
        FUNCS
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("?", |(n, _)| n)
    }

    /// All callable names, aliases included (for "did you mean" diagnostics).
    pub fn names() -> impl Iterator<Item = &'static str> {
        FUNCS.iter().map(|(n, _)| *n)
    }

    /// Number of arguments, the method receiver included.
    pub fn arity(self) -> usize {
        match self {
            Func::Powi | Func::Powf | Func::Atan2 | Func::Hypot => 2,
            _ => 1,
        }
    }

    /// The graph operation, for every function but `powi` (whose exponent is part of the op).
    pub(crate) fn op(self) -> Option<Op> {
        Some(match self {
            Func::Powi => return None,
            Func::Powf => Op::Powf,
            Func::Sqrt => Op::Sqrt,
            Func::Exp => Op::Exp,
            Func::Ln => Op::Ln,
            Func::Sin => Op::Sin,
            Func::Cos => Op::Cos,
            Func::Tan => Op::Tan,
            Func::Asin => Op::Asin,
            Func::Acos => Op::Acos,
            Func::Atan => Op::Atan,
            Func::Atan2 => Op::Atan2,
            Func::Sinh => Op::Sinh,
            Func::Cosh => Op::Cosh,
            Func::Tanh => Op::Tanh,
            Func::Abs => Op::Abs,
            Func::Hypot => Op::Hypot,
        })
    }
}

/// Binding strength of an emitted expression: sums < products < negation < atoms.
pub(crate) const PREC_SUM: u8 = 1;
/// Products and quotients.
pub(crate) const PREC_PRODUCT: u8 = 2;
/// Unary minus (also negative literals).
pub(crate) const PREC_NEG: u8 = 3;
/// Calls, identifiers, literals.
pub(crate) const PREC_ATOM: u8 = 4;

impl Op {
    /// The name used in `Display` and in op counts (`add`, `mul`, `sin`, `powi` …).
    pub fn name(self) -> &'static str {
        match self {
            Op::Neg => "neg",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Powi(_) => "powi",
            Op::Powf => "powf",
            Op::Sqrt => "sqrt",
            Op::Exp => "exp",
            Op::Ln => "ln",
            Op::Sin => "sin",
            Op::Cos => "cos",
            Op::Tan => "tan",
            Op::Asin => "asin",
            Op::Acos => "acos",
            Op::Atan => "atan",
            Op::Atan2 => "atan2",
            Op::Sinh => "sinh",
            Op::Cosh => "cosh",
            Op::Tanh => "tanh",
            Op::Abs => "abs",
            Op::Hypot => "hypot",
        }
    }

    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Powf | Op::Atan2 | Op::Hypot => 2,
            _ => 1,
        }
    }

    /// Whether op(a, b) = op(b, a), so operands are put in canonical order.
    pub fn is_commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::Hypot)
    }

    /// The infix operator symbol, for `Neg` and the four arithmetic operations.
    fn symbol(self) -> Option<&'static str> {
        match self {
            Op::Neg | Op::Sub => Some("-"),
            Op::Add => Some("+"),
            Op::Mul => Some("*"),
            Op::Div => Some("/"),
            _ => None,
        }
    }

    /// Precedence of an expression whose head is this op.
    pub(crate) fn precedence(self) -> u8 {
        match self {
            Op::Add | Op::Sub => PREC_SUM,
            Op::Mul | Op::Div => PREC_PRODUCT,
            Op::Neg => PREC_NEG,
            _ => PREC_ATOM,
        }
    }

    /// Minimal precedence operand `i` must have to be written without parentheses.
    /// Right operands need one level more, so a − (b − c) and a · (b · c) keep their grouping
    /// (floating-point operations are not associative).
    pub(crate) fn operand_precedence(self, i: usize) -> u8 {
        match self {
            Op::Add | Op::Sub => PREC_SUM + u8::from(i == 1),
            Op::Mul | Op::Div => PREC_PRODUCT + u8::from(i == 1),
            Op::Neg => PREC_ATOM,
            _ => 0,
        }
    }

    /// Evaluates the op on operand values.
    pub fn eval<R: Real>(self, args: &[R]) -> R {
        let x = &args[0];
        let y = || &args[1];
        match self {
            Op::Neg => x.neg(),
            Op::Add => x.add(y()),
            Op::Sub => x.sub(y()),
            Op::Mul => x.mul(y()),
            Op::Div => x.div(y()),
            Op::Powi(k) => x.powi(k),
            Op::Powf => x.powf(y()),
            Op::Sqrt => x.sqrt(),
            Op::Exp => x.exp(),
            Op::Ln => x.ln(),
            Op::Sin => x.sin(),
            Op::Cos => x.cos(),
            Op::Tan => x.tan(),
            Op::Asin => x.asin(),
            Op::Acos => x.acos(),
            Op::Atan => x.atan(),
            Op::Atan2 => x.atan2(y()),
            Op::Sinh => x.sinh(),
            Op::Cosh => x.cosh(),
            Op::Tanh => x.tanh(),
            Op::Abs => x.abs(),
            Op::Hypot => x.hypot(y()),
        }
    }

    /// Rust tokens computing the op on `f64` operands (already parenthesised as needed).
    /// Functions are called through `::core::primitive::f64`, so user items named `f64`,
    /// `sin` … cannot capture them.
    pub(crate) fn emit(self, args: &[TokenStream]) -> TokenStream {
        let a = &args[0];
        match self {
            Op::Neg => quote!(- #a),
            Op::Add | Op::Sub | Op::Mul | Op::Div => {
                let b = &args[1];
                match self {
                    Op::Add => quote!(#a + #b),
                    Op::Sub => quote!(#a - #b),
                    Op::Mul => quote!(#a * #b),
                    _ => quote!(#a / #b),
                }
            }
            Op::Powi(k) => {
                let k = Literal::i32_unsuffixed(k);
                quote!(::core::primitive::f64::powi(#a, #k))
            }
            _ => {
                let name = format_ident!("{}", self.name());
                quote!(::core::primitive::f64::#name(#(#args),*))
            }
        }
    }

    /// Text of the op applied to operand texts (already parenthesised), for `Display`.
    pub(crate) fn display(self, args: &[String]) -> String {
        match (self, self.symbol()) {
            (Op::Neg, _) => format!("-{}", args[0]),
            (_, Some(s)) => format!("{} {s} {}", args[0], args[1]),
            (Op::Powi(k), None) => format!("powi({}, {k})", args[0]),
            (_, None) => format!("{}({})", self.name(), args.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_with_arity() {
        assert_eq!(Func::from_name("log"), Some(Func::Ln));
        assert_eq!(Func::from_name("ln"), Some(Func::Ln));
        assert_eq!(Func::Ln.name(), "ln");
        assert_eq!(Func::from_name("atan2").map(Func::arity), Some(2));
        assert_eq!(Func::from_name("powi").map(Func::arity), Some(2));
        assert_eq!(Func::from_name("sinh").map(Func::arity), Some(1));
        assert_eq!(Func::from_name("gamma"), None);
        assert!(Func::names().any(|n| n == "hypot"));
    }

    #[test]
    fn function_names_match_op_names() {
        for (name, func) in FUNCS {
            if let Some(op) = func.op() {
                assert_eq!(op.name(), func.name(), "{name}");
                assert_eq!(op.arity(), func.arity(), "{name}");
            }
        }
    }
}
