//! `sparkgen`: the command line of [`sparkgen::cli`]. Without arguments it integrates the
//! default problem (Lotka–Volterra 2d, h = 0.1, 10⁴ steps) with the method guide's pick for long
//! runs of degenerate Lagrangians (`generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN`) and
//! prints a summary; `sparkgen --help` lists the subcommands and names the default method.

fn main() -> std::process::ExitCode {
    sparkgen::cli::main()
}
