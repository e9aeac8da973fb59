// An unknown family: the closest names and where the list is.
sparkgen::stepper!(pub Gauss2 = VprkGaus(2));

fn main() {}
