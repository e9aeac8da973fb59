//! The implicit-DAE steppers on the view `LagrangianDae` of a degenerate Lagrangian solve the
//! same stage equations as the family's own stepper (with the projective stage values `Q̃`, `P̃`
//! as unknowns instead of eliminated): on Lotka–Volterra in the SPARK test configuration the two
//! trajectories agree to round-off.
use nalgebra::SVector;
use sparkgen::cli::registry::unknowns;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::{Options, integrate};
use sparkgen::layout::Dims;
use sparkgen::problem::LagrangianDae;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solution::Solution;
use sparkgen::stage::StageMethod;

fn run<M: StageMethod<P, 2>, P, const N: usize>(problem: &P, steps: usize) -> Solution<2> {
    let lv = LotkaVolterra2d::SPARK_TEST;
    let (q0, p0) = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
    integrate::<M, P, 2, N>(problem, q0, p0, &Options::new(0.1, steps))
        .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error))
}

fn distance(a: &Solution<2>, b: &Solution<2>) -> f64 {
    let d = |x: &[SVector<f64, 2>], y: &[SVector<f64, 2>]| {
        x.iter().zip(y).map(|(x, y)| (x - y).amax()).fold(0.0, f64::max)
    };
    assert_eq!(a.q.len(), b.q.len());
    d(&a.q, &b.q).max(d(&a.p, &b.p))
}

macro_rules! identity {
    ($($name:ident: $own:ty, $dae:ty;)*) => {$(
        #[test]
        fn $name() {
            let lv = LotkaVolterra2d::SPARK_TEST;
            let own = run::<$own, _, { unknowns(&<$own>::UNKNOWN_LAYOUT, Dims::uniform(2)) }>(&lv, 100);
            let view = LagrangianDae(lv);
            let dae = run::<$dae, _, { unknowns(&<$dae>::UNKNOWN_LAYOUT, Dims::uniform(2)) }>(&view, 100);
            let d = distance(&own, &dae);
            println!("{}: {d:e}", stringify!($own));
            assert!(d <= 1e-13, "{} and its implicit-DAE stepper differ by {d:e}", stringify!($own));
        }
    )*};
}

identity! {
    vspark_glvprk_1: VsparkGlvprk1, IdaeVsparkGlvprk1<2>;
    spark_glrk_2: SparkGlrk2, IdaeSparkGlrk2<2>;
}

#[test]
fn debug_glvprk() {
    use sparkgen::integrate::Stepper;
    use sparkgen::solve::NewtonOptions;
    let lv = LotkaVolterra2d::SPARK_TEST;
    let (q0, p0) = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
    let view = LagrangianDae(lv);
    const N1: usize = unknowns(&VsparkGlvprk1::UNKNOWN_LAYOUT, Dims::uniform(2));
    const N2: usize = unknowns(&<IdaeVsparkGlvprk1<2>>::UNKNOWN_LAYOUT, Dims::uniform(2));
    let mut s1 = Stepper::<VsparkGlvprk1, _, 2, N1>::new(&lv, 0.1, NewtonOptions::default()).unwrap();
    let mut s2 = Stepper::<IdaeVsparkGlvprk1<2>, _, 2, N2>::new(&view, 0.1, NewtonOptions::default()).unwrap();
    let (mut qa, mut pa, mut qb, mut pb) = (q0, p0, q0, p0);
    for n in 0..3 {
        let a = s1.step(&qa, &pa, n + 1, 0.0).unwrap();
        println!("own x = {:?}", s1.unknowns());
        let b = s2.step(&qb, &pb, n + 1, 0.0);
        println!("dae x = {:?} {:?}", s2.unknowns(), b.as_ref().map(|b| b.2));
        qa = a.0; pa = a.1;
        if let Ok(b) = b { qb = b.0; pb = b.1; println!("q {} {} p {} {}", qa, qb, pa, pb); }
    }
}
