// Declared steppers with attributes, visibilities and asserted kinds, used as stage methods.
use sparkgen::layout::Dims;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::stage::StageMethod;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x], theta = [x], hamiltonian = x * x / 2)]
struct Problem;

mod steppers {
    sparkgen::stepper! {
        /// Gauss–Legendre VPRK with two stages.
        #[derive(Hash)]
        pub Gauss2 = VprkGauss(2);
        pub(crate) Rattle2 = RattleLobattoIIIAIIIB(2): Holonomic;
    }
}

fn name<M: StageMethod<Problem, 1>>() -> &'static str {
    M::NAME
}

fn main() {
    assert_eq!(name::<steppers::Gauss2>(), "VprkGauss2");
    assert_eq!(steppers::Gauss2::UNKNOWN_LAYOUT.len(Dims::uniform(1)), 2);
    let _ = steppers::Rattle2::<1>;
}
