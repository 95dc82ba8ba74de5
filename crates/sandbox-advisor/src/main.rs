//! `sandbox-advisor`: the command line ([`sandbox_advisor::cli`]) with the shipped families.

fn main() -> std::process::ExitCode {
    sandbox_advisor::cli::run(host_adapter::standard_registry())
}
