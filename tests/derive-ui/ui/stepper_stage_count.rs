// A stage count the family does not have: the ones it has.
sparkgen::stepper!(pub Gauss7 = VprkGauss(7));

fn main() {}
