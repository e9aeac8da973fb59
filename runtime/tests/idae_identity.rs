//! The implicit-DAE steppers on the view `LagrangianDae` of a degenerate Lagrangian solve the
//! same stage equations as the family's own stepper (with the projective stage values `Q̃`, `P̃`
//! as unknowns instead of eliminated): on Lotka–Volterra in the SPARK test configuration their
//! steps from the same states agree to round-off over 100 steps of h = 0.1. (Separately computed
//! trajectories drift apart by round-off carried along by the orbit's shear, ~n²ε.)
use sparkgen::cli::registry::unknowns;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Stepper;
use sparkgen::layout::Dims;
use sparkgen::problem::LagrangianDae;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

/// The largest difference between the steps of `A` (on `a`) and `B` (on `b`) from the same
/// states, the points of `A`'s trajectory of `steps` steps of h = 0.1.
fn largest_step_difference<A, B, PA, PB, const NA: usize, const NB: usize>(
    a: &PA,
    b: &PB,
    steps: usize,
) -> f64
where
    A: StageMethod<PA, 2>,
    B: StageMethod<PB, 2>,
{
    let lv = LotkaVolterra2d::SPARK_TEST;
    let (mut q, mut p) = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
    let newton = NewtonOptions::default();
    let mut own = Stepper::<A, PA, 2, NA>::new(a, 0.1, newton).unwrap_or_else(|e| panic!("{e}"));
    let mut dae = Stepper::<B, PB, 2, NB>::new(b, 0.1, newton).unwrap_or_else(|e| panic!("{e}"));
    let mut largest = 0.0f64;
    for n in 1..=steps {
        let t = (n - 1) as f64 * 0.1;
        let (q1, p1, _) = own.step(&q, &p, n, t).unwrap_or_else(|e| panic!("{e}"));
        let (q2, p2, _) = dae.step(&q, &p, n, t).unwrap_or_else(|e| panic!("{e}"));
        largest = largest.max((q1 - q2).amax()).max((p1 - p2).amax());
        (q, p) = (q1, p1);
    }
    largest
}

macro_rules! identity {
    ($($name:ident: $own:ty, $dae:ty;)*) => {$(
        #[test]
        fn $name() {
            let lv = LotkaVolterra2d::SPARK_TEST;
            let d = largest_step_difference::<
                $own,
                $dae,
                _,
                _,
                { unknowns(&<$own>::UNKNOWN_LAYOUT, Dims::uniform(2)) },
                { unknowns(&<$dae>::UNKNOWN_LAYOUT, Dims::uniform(2)) },
            >(&lv, &LagrangianDae(lv), 100);
            println!("{}: {d:e}", stringify!($own));
            assert!(d <= 1e-13, "{} and its implicit-DAE stepper differ by {d:e}", stringify!($own));
        }
    )*};
}

identity! {
    spark_glrk_1: SparkGlrk1, IdaeSparkGlrk1<2>;
    spark_glrk_3: SparkGlrk3, IdaeSparkGlrk3<2>;
    spark_lobatto_iiia_iiib_2: SparkLobattoIIIAIIIB2, IdaeSparkLobattoIIIAIIIB2<2>;
    spark_lobatto_iiib_iiia_3: SparkLobattoIIIBIIIA3, IdaeSparkLobattoIIIBIIIA3<2>;
    spark_lob_abd_3: SparkLobABD3, IdaeSparkLobABD3<2>;
    spark_glrk_lobatto_iiia_iiib_2: SparkGlrkLobattoIIIAIIIB2, IdaeSparkGlrkLobattoIIIAIIIB2<2>;
    spark_glvprk_2: SparkGlvprk2, IdaeSparkGlvprk2<2>;
    vpark_gauss_2: VparkGlrkpSymplectic2, IdaeVparkGlrkpSymplectic2<2>;
    vpark_lobatto_iiib_iiia_3: VparkLobattoIIIBIIIApSymplectic3, IdaeVparkLobattoIIIBIIIApSymplectic3<2>;
}
