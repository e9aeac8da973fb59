//! `sparkgen`: the command line of [`sparkgen::cli`]. Without arguments it integrates the
//! default problem (Lotka–Volterra 2d with SLRKLobattoIIIE(3), h = 0.1, 10⁴ steps) and prints
//! a summary; `sparkgen --help` lists the subcommands.

fn main() -> std::process::ExitCode {
    sparkgen::cli::main()
}
