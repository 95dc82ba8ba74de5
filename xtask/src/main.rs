//! Workspace tasks for sandbox-advisor, run as `cargo xtask <task>`.
//!
//! - `inject`: defect injection: apply each catalogued mutation
//!   (`crates/*/mutations.toml`, `examples/*/mutations.toml`, format in
//!   `docs/mutations.md`), run the tests that claim to catch it, and report
//!   every arm that stayed SILENT.
//! - `gen-log`: a realistic mixed event log in the CLI's line protocol, of a
//!   given size, deterministic for a seed.
//! - `new-family <id>`: scaffold a family crate and register it (the workspace
//!   member, the host-adapter feature, the registry line).
//! - `mutants`: cargo-mutants on every family crate, the two ledger stores and
//!   advisor-core's ledger, budget, quote and digest modules (or `--package`
//!   ones), a per-crate table, exit 1 on any missed mutant.
//! - `instructions [--update]`: the instruction-count benches under valgrind,
//!   compared with the committed baseline; exit 1 when one grew by more than 3 %.

mod apply;
mod catalogue;
mod docs;
mod gen_log;
mod inject;
mod instructions;
mod libtest;
mod mutants;
mod new_family;
mod report;
mod run;
mod targets;
mod tree;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Workspace tasks for sandbox-advisor.
#[derive(Debug, Parser)]
#[command(name = "xtask", bin_name = "cargo xtask", version)]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

/// The tasks. Each variant's doc comment is its `--help` line.
#[derive(Debug, Subcommand)]
enum Task {
    /// Apply each catalogued defect, run the tests that claim to catch it,
    /// and report SILENT arms (exit 1 on any SILENT or BROKEN entry).
    Inject(inject::InjectArgs),
    /// Write a realistic mixed JSONL event log (`--bytes N`, deterministic for `--seed`).
    GenLog(gen_log::GenLogArgs),
    /// Run cargo-mutants on the family crates, the ledger stores and core's
    /// ledger/budget/quote/digest modules (`--package` narrows) and print a
    /// per-crate table (exit 1 when any mutant is missed).
    Mutants(mutants::MutantsArgs),
    /// Scaffold `crates/family-<id>` and register it (member, feature, registry line, README row).
    NewFamily(new_family::NewFamilyArgs),
    /// Run the instruction-count benches and gate on the committed baseline
    /// (exit 1 when one grew by more than 3 %; `--update` rewrites it).
    Instructions(instructions::InstructionsArgs),
    // Further tasks are added here as variants, with an arm
    // in `main` below.
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Task::Inject(args) => inject::main(args),
        Task::GenLog(args) => gen_log::main(args),
        Task::Mutants(args) => mutants::main(args),
        Task::NewFamily(args) => new_family::main(args),
        Task::Instructions(args) => instructions::main(args),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
