//! The interface between generated steppers and the runtime.
//!
//! A one-step method is a square nonlinear system `r(x; q_n, p_n, λ_n, h) = 0` in the unknowns
//! `x` (laid out by [`StageMethod::UNKNOWNS`]) with its exact Jacobian, and an explicit update
//! `(q_{n+1}, p_{n+1}) = Ψ(x; q_n, p_n, h)`. `λ_n` is the multiplier a method carries from step
//! to step ([`StageMethod::MULTIPLIER`]; VPARK reads it, most methods ignore it). The generator emits one implementation per
//! (family, tableaus, s), fully unrolled with the tableau coefficients as literals.

use crate::layout::{Dims, Elimination, Layout};
use crate::rows::{RowMajor, TangentRows};
use crate::solve::{Dynamic, Lu, NonlinearSystem, SingularMatrix, Space};
use nalgebra::{SMatrix, SVector};
use std::cell::RefCell;
use std::marker::PhantomData;

/// Stage equations of a method applied to problems of type `P` with `D` coordinates.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a method for problems of type `{P}` with {D} coordinates",
    note = "a method applies to one problem kind (`sparkgen methods` lists them by kind)"
)]
pub trait StageMethod<P, const D: usize> {
    /// The kind of problem the method applies to (its initial guess and consistency checks).
    type Kind: crate::kind::Access<P, D>;
    /// The method's name, e.g. `SlrkLobattoIIIEIIIEBar3`.
    const NAME: &'static str;
    /// Classical order.
    const ORDER: usize;
    /// Nodes `c_i` of the internal stages (for the initial guess).
    const NODES: &'static [f64];
    /// Nodes `c̃_j` of the projective stages, where blocks sit at them
    /// ([`crate::layout::Nodes::Projective`]).
    const PROJECTIVE_NODES: &'static [f64] = &[];
    /// The unknown vector.
    const UNKNOWNS: Layout;
    /// The residual vector (same length).
    const RESIDUALS: Layout;
    /// The widths of the layouts' vectors: [`Dims::uniform`]`(D)` for degenerate Lagrangians
    /// (`D` primary constraints), `Dims::new(D, M)` for `M` holonomic constraints.
    const DIMS: Dims;
    /// The stage Jacobian is rank-deficient by construction: the unknowns have a gauge freedom
    /// (e.g. VSPARK over a tableau whose internal and projective q-slots coincide sees `V` and
    /// `Λ̃` only through `V + Λ̃` in the positions), so Newton must take minimum-norm steps
    /// ([`crate::solve::LinearSolve::MinimumNorm`]).
    const RANK_DEFICIENT: bool = false;
    /// How the method forms the multiplier `λ_{n+1}` it carries to the next step (`None`: it
    /// carries none, and `λ_n` is not read).
    const MULTIPLIER: Option<MultiplierUpdate> = None;
    /// The pivots of the stage Jacobian known before its entries, `(residual vector, unknown
    /// vector)` pairs in the order elimination takes them ([`crate::layout::Elimination`]):
    /// constant multiples of the identity in a constant row or column of blocks, chosen by the
    /// generator (`sparkgen_description::elimination`). Newton's LU takes them first and
    /// factors the rest with partial pivoting when asked
    /// ([`crate::solve::LinearSolve::StaticPivots`], [`crate::solve::ReducedLu`]).
    const ELIMINATION: &'static [(usize, usize)] = &[];

    /// Writes `r(x)`.
    fn residual(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &[f64],
        x: &[f64],
        r: &mut [f64],
    );

    /// Writes the exact Jacobian `∂r/∂x` (overwriting `j`, `N × N`).
    fn jacobian(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &[f64],
        x: &[f64],
        j: &mut RowMajor<'_>,
    );

    /// The partial derivatives of the residual and the update with respect to the step inputs
    /// and the unknowns (overwriting `t`), from which the tangent map of the step follows by
    /// the implicit function theorem.
    fn tangent(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &[f64],
        x: &[f64],
        t: &mut TangentRows<'_>,
    );

    /// `(q_{n+1}, p_{n+1})` from the converged unknowns.
    fn update(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &[f64],
        x: &[f64],
    ) -> (SVector<f64, D>, SVector<f64, D>);
}

/// `λ_{n+1} = Σ_j d^λ_j Λ̃_j`: the weights `d^λ` over the stages of unknown block `block`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiplierUpdate {
    /// The unknown block of the `Λ̃_j`.
    pub block: usize,
    /// `d^λ_j`.
    pub weights: &'static [f64],
    /// Whether the stage equations read `λ_n` (`Λ̃_1 = λ_n` at a projective stage with
    /// `c^λ_1 = 0`), so that an error in `λ_n` propagates to `λ_{n+1}` (and may grow: the
    /// stepper watches the multiplier's defect). The generator guarantees that they read it
    /// nowhere else than as `−λ_n` in the continuity row `Λ̃_1 − λ_n`, the first row of the
    /// residual block numbered `block` (so `∂r/∂λ_n = −I` there,
    /// [`crate::amplification::multiplier_amplification`]).
    pub read: bool,
}

impl MultiplierUpdate {
    /// `λ_{n+1}` from the converged unknowns `x` of a method with layout `layout` and widths
    /// `dims` into `lambda` (the block's width long).
    pub fn apply(&self, layout: &Layout, dims: Dims, x: &[f64], lambda: &mut [f64]) {
        lambda.fill(0.0);
        for (stage, &w) in self.weights.iter().enumerate() {
            let offset = layout.offset(self.block, stage, dims);
            for (l, xi) in lambda.iter_mut().zip(&x[offset..]) {
                *l += w * xi;
            }
        }
    }
}

/// The partial derivatives of one step `r(x; q, p) = 0`, `(q₁, p₁) = Ψ(x; q, p)` (row-major):
/// `∂r/∂q`, `∂r/∂p` (`N × D`), `∂q₁/∂x`, `∂p₁/∂x` (`D × N`) and the explicit
/// `∂(q₁, p₁)/∂(q, p)` at fixed x (`D × D`).
#[derive(Clone, Debug, PartialEq)]
pub struct Tangent {
    /// `∂r/∂q`.
    pub r_q: Vec<f64>,
    /// `∂r/∂p`.
    pub r_p: Vec<f64>,
    /// `∂q₁/∂x`.
    pub q_x: Vec<f64>,
    /// `∂p₁/∂x`.
    pub p_x: Vec<f64>,
    /// `∂q₁/∂q` at fixed x.
    pub q_q: Vec<f64>,
    /// `∂q₁/∂p` at fixed x.
    pub q_p: Vec<f64>,
    /// `∂p₁/∂q` at fixed x.
    pub p_q: Vec<f64>,
    /// `∂p₁/∂p` at fixed x.
    pub p_p: Vec<f64>,
}

impl Tangent {
    /// Zeros for `n` unknowns and `d` coordinates.
    pub fn zero(n: usize, d: usize) -> Tangent {
        Tangent {
            r_q: vec![0.0; n * d],
            r_p: vec![0.0; n * d],
            q_x: vec![0.0; d * n],
            p_x: vec![0.0; d * n],
            q_q: vec![0.0; d * d],
            q_p: vec![0.0; d * d],
            p_q: vec![0.0; d * d],
            p_p: vec![0.0; d * d],
        }
    }

    /// Every entry of every block set to `value`.
    pub fn fill(&mut self, value: f64) {
        for part in [
            &mut self.r_q,
            &mut self.r_p,
            &mut self.q_x,
            &mut self.p_x,
            &mut self.q_q,
            &mut self.q_p,
            &mut self.p_q,
            &mut self.p_p,
        ] {
            part.fill(value);
        }
    }
}

impl Tangent {
    /// The blocks as the rows a generated [`StageMethod::tangent`] writes into, for `d`
    /// coordinates; `None` if the blocks' lengths are not those of `d` coordinates.
    pub fn rows(&mut self, d: usize) -> Option<TangentRows<'_>> {
        let n = self.q_x.len().checked_div(d).unwrap_or(0);
        Some(TangentRows {
            r_q: RowMajor::new(&mut self.r_q, d)?,
            r_p: RowMajor::new(&mut self.r_p, d)?,
            q_x: RowMajor::new(&mut self.q_x, n)?,
            p_x: RowMajor::new(&mut self.p_x, n)?,
            q_q: RowMajor::new(&mut self.q_q, d)?,
            q_p: RowMajor::new(&mut self.q_p, d)?,
            p_q: RowMajor::new(&mut self.p_q, d)?,
            p_p: RowMajor::new(&mut self.p_p, d)?,
        })
    }
}

/// The stage equations of one step from `(q, p)` as a [`NonlinearSystem`] in the space of the
/// method's `N` unknowns, with the storage its data scales' tangent partials are written into
/// (kept by the caller, so that a solve allocates nothing).
pub struct StageSystem<'a, Meth, P, const D: usize> {
    problem: &'a P,
    h: f64,
    q: SVector<f64, D>,
    p: SVector<f64, D>,
    lambda: &'a [f64],
    space: Dynamic,
    tangent: &'a RefCell<Tangent>,
    method: PhantomData<Meth>,
}

impl<'a, Meth, P, const D: usize> StageSystem<'a, Meth, P, D> {
    /// The step of size `h` from `(q, p)` with the carried multiplier `λ_n = lambda` (empty
    /// for methods that carry none), its unknowns in `space`, its tangent partials in `tangent`
    /// ([`Tangent::zero`]`(N, D)`).
    pub fn new(
        problem: &'a P,
        (h, q, p): (f64, SVector<f64, D>, SVector<f64, D>),
        lambda: &'a [f64],
        space: Dynamic,
        tangent: &'a RefCell<Tangent>,
    ) -> Self {
        StageSystem {
            problem,
            h,
            q,
            p,
            lambda,
            space,
            tangent,
            method: PhantomData,
        }
    }
}

impl<Meth, P, const D: usize> NonlinearSystem<Dynamic> for StageSystem<'_, Meth, P, D>
where
    Meth: StageMethod<P, D>,
{
    fn space(&self) -> Dynamic {
        self.space
    }
    fn residual(&self, x: &[f64], r: &mut [f64]) {
        Meth::residual(self.problem, self.h, &self.q, &self.p, self.lambda, x, r);
    }
    /// [`StageMethod::jacobian`] on the `N × N` rows of `j`; a `j` of another size than `N²`
    /// is not this system's Jacobian and is filled with NaN.
    fn jacobian(&self, x: &[f64], j: &mut [f64]) {
        let n = self.space.dim();
        if j.len() != n * n {
            return j.fill(f64::NAN);
        }
        if let Some(mut rows) = RowMajor::new(j, n) {
            Meth::jacobian(
                self.problem,
                self.h,
                &self.q,
                &self.p,
                self.lambda,
                x,
                &mut rows,
            );
        }
    }
    fn scale(&self) -> f64 {
        self.q.amax().max(self.p.amax())
    }
    /// The method's static pivots ([`StageMethod::ELIMINATION`]), if it has any.
    fn elimination(&self) -> Option<Elimination<'_>> {
        (!Meth::ELIMINATION.is_empty()).then_some(Elimination {
            pivots: Meth::ELIMINATION,
            unknowns: Meth::UNKNOWNS,
            residuals: Meth::RESIDUALS,
            dims: Meth::DIMS,
        })
    }
    /// Each unknown block's components in their own scale ([`Layout::component_scales`]).
    fn unknown_scales(&self, x: &[f64], u: &mut [f64]) {
        Meth::UNKNOWNS.component_scales(Meth::DIMS, x, u);
    }
    /// `d_i = Σ_k |∂r_i/∂q_k|·|q_k| + |∂r_i/∂p_k|·|p_k|` from [`StageMethod::tangent`]: the
    /// size of the terms that the step's data `(q_n, p_n)` carry into row `i` (NaN where the
    /// tangent storage does not fit the method).
    fn data_scales(&self, x: &[f64], d: &mut [f64]) {
        let mut storage = self.tangent.borrow_mut();
        let Some(mut t) = storage.rows(D) else {
            return d.fill(f64::NAN);
        };
        Meth::tangent(
            self.problem,
            self.h,
            &self.q,
            &self.p,
            self.lambda,
            x,
            &mut t,
        );
        let width = D.max(1);
        let rows = t.r_q.entries().chunks_exact(width);
        for (di, (r_q, r_p)) in d
            .iter_mut()
            .zip(rows.zip(t.r_p.entries().chunks_exact(width)))
        {
            *di = carried(r_q, self.q.as_slice()) + carried(r_p, self.p.as_slice());
        }
    }
}

/// `Σ_k |a_k·y_k|`: the size of the terms that the data `y` carry into a residual row whose
/// partials with respect to them are `a` (a row of `∂r/∂q` or `∂r/∂p`).
pub fn carried(a: &[f64], y: &[f64]) -> f64 {
    a.iter().zip(y).map(|(a, b)| (a * b).abs()).sum()
}

/// The tangent map `DΨ = ∂(q₁, p₁)/∂(q, p)` of the step from `(q, p)` with converged unknowns
/// `x` (the `N` entries of `space`), by the implicit function theorem on the stage equations
/// `r(x; q, p) = 0`: `DΨ = ∂Ψ/∂(q,p) − ∂Ψ/∂x (∂r/∂x)⁻¹ ∂r/∂(q,p)`. Blocks
/// `[[∂q₁/∂q, ∂q₁/∂p], [∂p₁/∂q, ∂p₁/∂p]]`. A carried multiplier `λ_n` is held fixed.
pub fn tangent_map<Meth: StageMethod<P, D>, P, const D: usize>(
    problem: &P,
    (h, q, p): (f64, &SVector<f64, D>, &SVector<f64, D>),
    lambda: &[f64],
    space: Dynamic,
    x: &[f64],
) -> Result<[[SMatrix<f64, D, D>; 2]; 2], SingularMatrix> {
    let n = space.dim();
    let mut lu = Lu::new(space);
    let mut jac = space.matrix();
    if let Some(mut rows) = RowMajor::new(&mut jac, n) {
        Meth::jacobian(problem, h, q, p, lambda, x, &mut rows);
    }
    lu.refactor(&jac)?;
    let mut t = Tangent::zero(n, D);
    if let Some(mut rows) = t.rows(D) {
        Meth::tangent(problem, h, q, p, lambda, x, &mut rows);
    }
    let mut out = [[SMatrix::<f64, D, D>::zeros(); 2]; 2];
    let mut z = space.vector();
    for (input, (r_in, explicit)) in [(&t.r_q, [&t.q_q, &t.p_q]), (&t.r_p, [&t.q_p, &t.p_p])]
        .into_iter()
        .enumerate()
    {
        for c in 0..D {
            // z = −(∂r/∂x)⁻¹ ∂r/∂input[:, c]
            for (zi, row) in z.iter_mut().zip(r_in.chunks_exact(D)) {
                *zi = -row[c];
            }
            lu.solve_in_place(&mut z);
            for (k, (x_block, e)) in [&t.q_x, &t.p_x].into_iter().zip(explicit).enumerate() {
                for r in 0..D {
                    let x_row = &x_block[r * n..(r + 1) * n];
                    let implicit: f64 = x_row.iter().zip(z.iter()).map(|(a, b)| a * b).sum();
                    out[k][input][(r, c)] = e[r * D + c] + implicit;
                }
            }
        }
    }
    Ok(out)
}
