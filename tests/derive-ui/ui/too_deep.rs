use sparkgen::DegenerateLagrangian;

// One level beyond the nesting the derives (and problem files) allow: 129 nested calls, 129
// chained method calls, 129 signs in a row. Each is one error at the token that exceeds it,
// before the expression is parsed.
#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, 0.0], hamiltonian = sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(x))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))]
struct Nested;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, 0.0], hamiltonian = x.sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin().sin())]
struct Chained;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, 0.0], hamiltonian = - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x)]
struct Signs;

fn main() {}
