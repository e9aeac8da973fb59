//! Each canonicalisation rule of the constructors, interning stability, and the typed errors.

use sparkgen_sym::{CallError, DiffError, Func, Graph, Node, Number, Op, Rational};

fn q(g: &mut Graph) -> (sparkgen_sym::NodeId, sparkgen_sym::NodeId) {
    (g.component("q", 0), g.component("q", 1))
}

#[test]
fn interning_is_stable() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let a = g.sin(x);
    let s1 = g.add(a, y);
    let len = g.len();
    let b = g.sin(x);
    let s2 = g.add(b, y);
    assert_eq!(s1, s2);
    assert_eq!(g.len(), len, "no new node for a repeated expression");
    assert_eq!(g.component("q", 0), x);
    assert_ne!(g.component("v", 0), x);
    // A second graph built by the same calls has the same ids.
    let mut h = Graph::new();
    let (x2, y2) = q(&mut h);
    let a2 = h.sin(x2);
    assert_eq!(h.add(a2, y2), s1);
}

#[test]
fn constants_fold_exactly() {
    let mut g = Graph::new();
    let third = g.rational(Rational::new(1, 3).expect("valid"));
    let sixth = g.rational(Rational::new(1, 6).expect("valid"));
    let s = g.add(third, sixth);
    assert_eq!(g.as_const(s), Some(Number::Rational(Rational::HALF)));
    let p = g.powi(third, -2);
    assert_eq!(g.as_const(p), Some(Number::Rational(Rational::integer(9))));
    let d = g.div(third, sixth);
    assert_eq!(g.as_const(d), Some(Number::Rational(Rational::integer(2))));
    // Exact folding of functions only at exact points; ln(2) stays symbolic.
    let one = g.int(1);
    let ln1 = g.ln(one);
    assert!(g.is_zero(ln1));
    let two = g.int(2);
    let ln2 = g.ln(two);
    assert_eq!(g.node(ln2), &Node::Unary(Op::Ln, two));
}

#[test]
fn overflowing_constants_fall_back_to_f64() {
    let mut g = Graph::new();
    let big = g.int(i128::MAX / 3);
    let p = g.mul(big, big);
    assert!(matches!(g.as_const(p), Some(Number::Float(v)) if v > 1e75));
}

#[test]
fn additive_identities() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let zero = g.int(0);
    assert_eq!(g.add(x, zero), x);
    assert_eq!(g.add(zero, x), x);
    assert_eq!(g.sub(x, zero), x);
    assert!(g.is_zero(g.clone().sub(x, x)));
    let nx = g.neg(x);
    assert_eq!(g.sub(zero, x), nx);
    assert_eq!(g.neg(nx), x, "−(−x) = x");
    let xy = g.sub(x, y);
    let yx = g.sub(y, x);
    assert_eq!(g.neg(xy), yx, "−(x − y) = y − x");
    let two = g.int(2);
    let twox = g.mul(two, x);
    assert_eq!(g.add(x, x), twox, "x + x = 2x");
}

#[test]
fn signs_are_pulled_outwards() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let ny = g.neg(y);
    let nx = g.neg(x);
    let xmy = g.sub(x, y);
    assert_eq!(g.add(x, ny), xmy, "x + (−y) = x − y");
    let xpy = g.add(x, y);
    assert_eq!(g.sub(x, ny), xpy, "x − (−y) = x + y");
    let xy = g.mul(x, y);
    let nxy = g.neg(xy);
    assert_eq!(g.mul(nx, y), nxy);
    assert_eq!(g.mul(nx, ny), xy);
    let m3 = g.int(-3);
    let three = g.int(3);
    let three_x = g.mul(three, x);
    let n3x = g.neg(three_x);
    assert_eq!(g.mul(m3, x), n3x, "(−3)·x = −(3·x)");
    let x2 = g.powi(x, 2);
    assert_eq!(g.powi(nx, 2), x2, "(−x)² = x²");
    let x3 = g.powi(x, 3);
    let nx3 = g.neg(x3);
    assert_eq!(g.powi(nx, 3), nx3, "(−x)³ = −x³");
    let d = g.div(x, y);
    let nd = g.neg(d);
    assert_eq!(g.div(x, ny), nd);
}

#[test]
fn multiplicative_identities() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let (zero, one) = (g.int(0), g.int(1));
    assert_eq!(g.mul(x, one), x);
    assert_eq!(g.mul(one, x), x);
    assert!(g.is_zero(g.clone().mul(x, zero)));
    assert_eq!(g.div(x, one), x);
    assert!(g.is_one(g.clone().div(x, x)));
    assert!(g.is_zero(g.clone().div(zero, y)));
}

#[test]
fn commutative_operands_are_ordered() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let c = g.int(5);
    let a = g.add(x, y);
    assert_eq!(g.add(y, x), a);
    let m = g.mul(y, x);
    assert_eq!(g.mul(x, y), m);
    let h = g.hypot(y, x);
    assert_eq!(g.hypot(x, y), h);
    // Constants come first.
    let cx = g.mul(x, c);
    assert_eq!(g.node(cx), &Node::Binary(Op::Mul, [c, x]));
    // Non-commutative ops keep their order.
    let s = g.sub(x, y);
    assert_ne!(g.sub(y, x), s);
    let at = g.atan2(x, y);
    assert_ne!(g.atan2(y, x), at);
}

#[test]
fn constants_are_collected_through_one_level() {
    let mut g = Graph::new();
    let (x, _) = q(&mut g);
    let (two, three, six, five) = (g.int(2), g.int(3), g.int(6), g.int(5));
    let m = g.mul(three, x);
    let expected = g.mul(six, x);
    assert_eq!(g.mul(two, m), expected, "2·(3·x) = 6·x");
    let s = g.add(three, x);
    let expected = g.add(five, x);
    assert_eq!(g.add(two, s), expected, "2 + (3 + x) = 5 + x");
}

#[test]
fn powers_merge() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let x2 = g.powi(x, 2);
    assert_eq!(g.mul(x, x), x2, "x·x = x²");
    let x3 = g.powi(x, 3);
    assert_eq!(g.mul(x2, x), x3, "x²·x = x³");
    let x6 = g.powi(x, 6);
    assert_eq!(g.powi(x2, 3), x6, "(x²)³ = x⁶");
    let x5 = g.powi(x, 5);
    assert_eq!(g.mul(x2, x3), x5, "x²·x³ = x⁵");
    assert_eq!(g.div(x5, x2), x3, "x⁵/x² = x³");
    let one = g.int(1);
    let inv_x = g.div(one, x);
    assert_eq!(g.powi(x, -1), inv_x, "x⁻¹ = 1/x");
    let inv_x3 = g.div(one, x3);
    assert_eq!(g.div(x2, x5), inv_x3, "x²/x⁵ = 1/x³");
    assert_eq!(g.powi(x, 1), x);
    assert!(g.is_one(g.clone().powi(x, 0)));
    let half = g.rational(Rational::HALF);
    let sq = g.sqrt(x);
    assert_eq!(g.powf(x, half), sq, "x^½ = √x");
    let three = g.int(3);
    assert_eq!(g.powf(x, three), x3, "x^3.0 = x³");
    let pf = g.powf(x, y);
    assert_eq!(g.node(pf), &Node::Binary(Op::Powf, [x, y]));
}

#[test]
fn quotients_normalise() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let z = g.component("q", 2);
    let one = g.int(1);
    let ix = g.div(one, x);
    let iy = g.div(one, y);
    let xy = g.mul(x, y);
    let ixy = g.div(one, xy);
    assert_eq!(g.mul(ix, iy), ixy, "(1/x)(1/y) = 1/(xy)");
    let zx = g.div(z, x);
    assert_eq!(g.mul(z, ix), zx, "z·(1/x) = z/x");
    let yz = g.mul(y, z);
    let x_yz = g.div(x, yz);
    let xy_ = g.div(x, y);
    assert_eq!(g.div(xy_, z), x_yz, "(x/y)/z = x/(yz)");
    let xz = g.mul(x, z);
    let xz_y = g.div(xz, y);
    let yz_ = g.div(y, z);
    assert_eq!(g.div(x, yz_), xz_y, "x/(y/z) = xz/y");
}

#[test]
fn abs_and_hypot_rules() {
    let mut g = Graph::new();
    let (x, _) = q(&mut g);
    let nx = g.neg(x);
    let ax = g.abs(x);
    assert_eq!(g.abs(nx), ax);
    assert_eq!(g.abs(ax), ax);
    let zero = g.int(0);
    assert_eq!(g.hypot(x, zero), ax);
    let m = g.int(-4);
    let a = g.abs(m);
    assert_eq!(g.as_const(a), Some(Number::Rational(Rational::integer(4))));
}

#[test]
fn calls_by_name_match_constructors() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let two = g.int(2);
    let sx = g.sin(x);
    let sin = Func::from_name("sin").expect("known");
    assert_eq!(g.call(sin, &[x]), Ok(sx));
    let log = Func::from_name("log").expect("known");
    let lx = g.ln(x);
    assert_eq!(g.call(log, &[x]), Ok(lx));
    let x2 = g.powi(x, 2);
    let powi = Func::from_name("powi").expect("known");
    assert_eq!(g.call(powi, &[x, two]), Ok(x2));
    let atan2 = Func::from_name("atan2").expect("known");
    let a = g.atan2(y, x);
    assert_eq!(g.call(atan2, &[y, x]), Ok(a));
    assert_eq!(
        g.call(sin, &[x, y]),
        Err(CallError::Arity {
            func: sin,
            expected: 1,
            found: 2
        })
    );
    assert_eq!(g.call(powi, &[x, y]), Err(CallError::NonIntegerExponent));
    let half = g.rational(Rational::HALF);
    assert_eq!(g.call(powi, &[x, half]), Err(CallError::NonIntegerExponent));
}

#[test]
fn abs_has_no_derivative() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let a = g.abs(x);
    let f = g.mul(a, y);
    let err = g.diff(f, x).expect_err("abs is not differentiable");
    assert!(matches!(err, DiffError::NotDifferentiable { op: "abs", node } if node == a));
    assert!(err.to_string().contains("`abs`"));
    // Not depending on the variable, abs is harmless.
    let dy = g.diff(f, y).expect("independent of x");
    assert_eq!(dy, a);
}

#[test]
fn derivative_errors_are_typed() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let s = g.add(x, y);
    assert_eq!(g.diff(s, s), Err(DiffError::NotAnInput(s)));
    let m = g.jacobian(&[s], &[x, y]).expect("differentiable");
    assert_eq!(
        g.mat_vec(&m, &[x]),
        Err(DiffError::LengthMismatch {
            expected: 2,
            found: 1
        })
    );
}

#[test]
fn derivatives_skip_independent_nodes() {
    let mut g = Graph::new();
    let (x, y) = q(&mut g);
    let sy = g.sin(y);
    let before = g.len();
    let d = g.diff(sy, x).expect("differentiable");
    assert!(g.is_zero(d));
    assert_eq!(g.len(), before + 1, "only the zero constant is created");
    let e = g.exp(x);
    let f = g.mul(e, sy);
    let d1 = g.diff(f, x).expect("differentiable");
    let len = g.len();
    assert_eq!(g.diff(f, x), Ok(d1), "memoised");
    assert_eq!(g.len(), len);
    assert_eq!(d1, f, "∂(eˣ sin y)/∂x = eˣ sin y, same node");
}

#[test]
fn extreme_integer_powers_stay_well_formed() {
    let mut g = Graph::new();
    let (x, _) = q(&mut g);
    let p = g.powi(x, i32::MIN);
    let d = g.diff(p, x).expect("differentiable");
    let v = g.eval::<f64>(&[p, d], 53, |_| 1.0);
    assert_eq!(v, [1.0, f64::from(i32::MIN)]);
    let big = g.powi(x, i32::MAX);
    let merged = g.mul(big, x);
    assert!(
        matches!(g.node(merged), Node::Binary(Op::Mul, _)),
        "overflowing merge keeps the product"
    );
}
