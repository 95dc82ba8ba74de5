//! A driver for instruction counts of the hot path, for callgrind: it runs
//! one case of `benches/hot_path.rs` (the same input) `N` times, each call in
//! its own `measure_*` function, so callgrind can count only inside it.
//!
//! ```text
//! cargo build --profile bench -p sandbox-advisor-host-adapter --example ir_hot_path
//! valgrind --tool=callgrind --toggle-collect='ir_hot_path::measure_*' \
//!     target/release/examples/ir_hot_path acl 10000
//! ```
//!
//! The instructions per call are the total (`Collected`) divided by `N`.
//! Cases: `acl` (the ACL recognizer alone, its finding dropped),
//! `acl_owner`, `failure_4k`, `failure_4k_dense`, `failure_short` and
//! `success_4k` (`Registry::owner` on the DeepSeek harness, prefilter on),
//! and `failure_4k_claude_code` (the 4 KiB failure on Claude Code's families).
#![allow(clippy::expect_used, clippy::panic)]

use advisor_core::testing::{failure, failure_with, foreground, success};
use advisor_core::{Family, Host, Observation, Registry};
use std::hint::black_box;

const ACL_LINE: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

fn filler(bytes: usize) -> String {
    let line = "   Compiling serde v1.0.219 (registry+https://example.invalid/index)  warning: unused import\n";
    line.repeat(bytes / line.len() + 1)[..bytes].to_owned()
}

#[inline(never)]
fn measure_acl(obs: &Observation) -> bool {
    family_acl::AclProvisioning.recognize(obs).is_some()
}

#[inline(never)]
fn measure_owner(registry: &Registry, obs: &Observation, host: Host) -> bool {
    registry.owner(obs, host).is_some()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "acl".to_owned());
    let n: usize = args.next().map_or(10_000, |n| n.parse().expect("N"));
    let registry = host_adapter::standard_registry()
        .build()
        .expect("the standard registry builds");
    let obs = match case.as_str() {
        "acl" | "acl_owner" => failure(ACL_LINE),
        "failure_4k" | "failure_4k_claude_code" => {
            let message = filler(4096);
            failure_with(&message, &format!("Error: {message}"), &[])
        }
        "failure_4k_dense" => {
            let line = "Get-ChildItem : Cannot find path 'C:\\Users\\WDAGUtilityAccount\\Work' because it does not exist.\n\
                        + CategoryInfo          : ObjectNotFound: (C:\\Users\\W...:String) [Get-ChildItem], ItemNotFoundException\n";
            failure(&line.repeat(4096 / line.len() + 1)[..4096])
        }
        "failure_short" => failure(r"ENOENT: no such file or directory, open 'D:\ws\package.json'"),
        "success_4k" => {
            let out = filler(4096);
            success(foreground(0, &out, "", None), &out)
        }
        other => panic!("unknown case {other}"),
    };
    let host = match case.as_str() {
        "failure_4k_claude_code" => Host::ClaudeCode,
        _ => Host::Dsh,
    };
    let mut hits = 0usize;
    for _ in 0..n {
        let hit = if case == "acl" {
            measure_acl(black_box(&obs))
        } else {
            measure_owner(black_box(&registry), black_box(&obs), host)
        };
        hits += usize::from(hit);
    }
    println!("{case}: {hits} of {n} recognized");
}
