//! A third party's own sidecar: the sandbox-advisor command line (`replay`,
//! `serve`, `explain`, `families`) with its `egress-blocked` family after the shipped ones.

fn main() -> std::process::ExitCode {
    let registry = host_adapter::standard_registry().family(third_party_family::EgressBlocked);
    sandbox_advisor::cli::run(registry)
}
