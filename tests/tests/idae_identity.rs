//! The implicit-DAE steppers on the view `LagrangianDae` of a degenerate Lagrangian solve the
//! same stage equations as the family's own stepper (with the projective stage values `Q̃`, `P̃`
//! as unknowns instead of eliminated): on Lotka–Volterra in the SPARK test configuration their
//! steps from the same states agree to round-off over 100 steps of h = 0.1. (Separately computed
//! trajectories drift apart by round-off carried along by the orbit's shear, ~n²ε.)
#[path = "support/step_difference.rs"]
mod step_difference;

use sparkgen::generated::steppers::*;
use sparkgen::problem::LagrangianDae;
use sparkgen::problems::LotkaVolterra2d;
use step_difference::{driver, largest_step_difference};

macro_rules! identity {
    ($($name:ident: $own:ty, $dae:ty;)*) => {$(
        #[test]
        fn $name() {
            let lv = LotkaVolterra2d::SPARK_TEST;
            let dae = LagrangianDae(lv);
            let drivers = (&mut driver::<$own, _, 2>(&lv, 0.1), &mut driver::<$dae, _, 2>(&dae, 0.1));
            let start = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
            let d = largest_step_difference(drivers, start, 0.1, 100);
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
