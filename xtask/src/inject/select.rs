//! Which entries a run takes: `--package`, `--only`, and the `--list` printout.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use anyhow::{Result, bail};

use super::InjectArgs;
use crate::catalogue::Entry;

/// Applies `--package` and `--only`; an unknown name is an error. A
/// catalogue that does not parse stays selected whatever `--only` says (its
/// ids are unknown), so it is never hidden.
pub(super) fn select(entries: Vec<Entry>, args: &InjectArgs) -> Result<Vec<Entry>> {
    let packages: BTreeSet<&str> = entries.iter().map(|e| e.package.as_str()).collect();
    for package in &args.package {
        if !packages.contains(package.as_str()) {
            bail!(
                "no catalogue belongs to package `{package}` (catalogued packages: {})",
                packages.into_iter().collect::<Vec<_>>().join(", ")
            );
        }
    }
    let entries: Vec<Entry> = entries
        .into_iter()
        .filter(|e| args.package.is_empty() || args.package.contains(&e.package))
        .collect();
    for id in &args.only {
        if !entries.iter().any(|e| &e.id == id) {
            bail!("no catalogue entry has id `{id}` (see `cargo xtask inject --list`)");
        }
    }
    Ok(entries
        .into_iter()
        .filter(|e| {
            args.only.is_empty() || args.only.contains(&e.id) || e.is_unparsable_catalogue()
        })
        .collect())
}

pub(super) fn print_list(entries: &[Entry], state: &Path) {
    let journals = fs::read_dir(state).into_iter().flatten().flatten();
    if journals
        .into_iter()
        .any(|j| j.file_name().to_string_lossy().contains("in-flight"))
    {
        eprintln!(
            "xtask inject: a journal from a killed run exists; the next `inject` run restores it"
        );
    }
    for e in entries {
        println!(
            "{}\t{}\t{}\t{}",
            e.id,
            e.package,
            e.file.display(),
            e.description
        );
        if let Some(why) = &e.broken {
            println!("\tBROKEN: {why}");
        }
        if let Some(reason) = &e.equivalent {
            println!("\tEQUIVALENT: {reason}");
        }
    }
    println!("{} entries", entries.len());
}
