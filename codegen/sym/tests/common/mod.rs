//! Problems shared by the integration tests: Lotka–Volterra 2d (standard gauge) and the
//! Cartesian pendulum, built with the public constructors.

#![allow(dead_code)]

use sparkgen_sym::{Cse, Graph, Kernel, KernelBuilder, Matrix, NodeId};

/// Lotka–Volterra 2d in the standard gauge: ϑ(q) = (q₂ + ln(q₂)/q₁, q₁),
/// H = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂ (indices 1, 2 are components 0, 1).
pub struct LotkaVolterra {
    pub q: Vec<NodeId>,
    pub w: Vec<NodeId>,
    pub v: Vec<NodeId>,
    pub theta: Vec<NodeId>,
    pub h: NodeId,
}

pub fn lotka_volterra(g: &mut Graph) -> LotkaVolterra {
    let q = g.vector("q", 2);
    let w = g.vector("w", 2);
    let v = g.vector("v", 2);
    let (q1, q2) = (q[0], q[1]);
    let l2 = g.ln(q2);
    let r = g.div(l2, q1);
    let theta = vec![g.add(q2, r), q1];
    let mut h = g.int(0);
    for (a, b, x) in [("a1", "b1", q1), ("a2", "b2", q2)] {
        let (a, b) = (g.param(a), g.param(b));
        let ax = g.mul(a, x);
        let lx = g.ln(x);
        let bl = g.mul(b, lx);
        h = g.add(h, ax);
        h = g.add(h, bl);
    }
    LotkaVolterra { q, w, v, theta, h }
}

/// The kernels of Lotka–Volterra named as in the budget table.
pub fn lotka_volterra_kernels(cse: Cse) -> Vec<(&'static str, Kernel)> {
    let mut g = Graph::new();
    let lv = lotka_volterra(&mut g);
    let j = g.jacobian(&lv.theta, &lv.q).expect("differentiable");
    let djtw = g
        .jacobian_transpose_vector_derivative(&lv.theta, &lv.q, &lv.w)
        .expect("differentiable");
    let djv = g
        .jacobian_vector_derivative(&lv.theta, &lv.q, &lv.v)
        .expect("differentiable");
    let grad = g.gradient(lv.h, &lv.q).expect("differentiable");
    let hess = g.hessian(lv.h, &lv.q).expect("differentiable");
    vec![
        (
            "theta",
            KernelBuilder::new()
                .vector("theta", &lv.theta)
                .build(&g, cse),
        ),
        ("J", KernelBuilder::new().matrix("J", &j).build(&g, cse)),
        (
            "dJtw",
            KernelBuilder::new().matrix("dJtw", &djtw).build(&g, cse),
        ),
        (
            "dJv",
            KernelBuilder::new().matrix("dJv", &djv).build(&g, cse),
        ),
        ("H", KernelBuilder::new().scalar("H", lv.h).build(&g, cse)),
        (
            "gradH",
            KernelBuilder::new().vector("gradH", &grad).build(&g, cse),
        ),
        (
            "hessH",
            KernelBuilder::new().matrix("hessH", &hess).build(&g, cse),
        ),
    ]
}

/// The Cartesian pendulum constraint c(q) = x² + y² − l².
pub struct Pendulum {
    pub q: Vec<NodeId>,
    pub lambda: Vec<NodeId>,
    pub c: Vec<NodeId>,
}

pub fn pendulum(g: &mut Graph) -> Pendulum {
    let q = g.vector("q", 2);
    let lambda = g.vector("lambda", 1);
    let l = g.param("l");
    let x2 = g.powi(q[0], 2);
    let y2 = g.powi(q[1], 2);
    let l2 = g.powi(l, 2);
    let s = g.add(x2, y2);
    let c = vec![g.sub(s, l2)];
    Pendulum { q, lambda, c }
}

/// Kernels c, Dc and ∂(Dcᵀλ)/∂q of the pendulum.
pub fn pendulum_kernels(cse: Cse) -> Vec<(&'static str, Kernel)> {
    let mut g = Graph::new();
    let p = pendulum(&mut g);
    let dc: Matrix = g.jacobian(&p.c, &p.q).expect("differentiable");
    let ddc = g
        .jacobian_transpose_vector_derivative(&p.c, &p.q, &p.lambda)
        .expect("differentiable");
    vec![
        ("c", KernelBuilder::new().vector("c", &p.c).build(&g, cse)),
        ("Dc", KernelBuilder::new().matrix("Dc", &dc).build(&g, cse)),
        (
            "dDctl",
            KernelBuilder::new().matrix("dDctl", &ddc).build(&g, cse),
        ),
    ]
}
