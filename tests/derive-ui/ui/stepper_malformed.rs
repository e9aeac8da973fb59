// A malformed declaration: the stage count is not in parentheses.
sparkgen::stepper!(pub Gauss2 = VprkGauss[2]);

sparkgen::stepper!(pub Gauss3 VprkGauss(3));

sparkgen::stepper!(Gauss4 = VprkGauss(4) Gauss1 = VprkGauss(1));

sparkgen::stepper!();

fn main() {}
