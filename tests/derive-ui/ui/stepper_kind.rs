// An asserted problem kind that is not the method's, and one that does not exist; the valid
// declaration between them is emitted.
sparkgen::stepper! {
    Gauss2 = VprkGauss(2): Holonomic;
    Rattle2 = RattleLobattoIIIAIIIB(2): Holonomic;
    Gauss3 = VprkGauss(3): Rigid;
}

fn main() {
    let _ = Rattle2::<1>;
}
