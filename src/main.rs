use std::process::ExitCode;

fn main() -> ExitCode {
    pubmed::cli::main()
}
