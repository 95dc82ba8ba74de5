//! What the brief and the detail both read: per kind of failure, the checks a
//! person runs in a terminal outside the client, the host-level commands that
//! fix it, and the client's own remedy (a row of the host's table).
//!
//! Every command here is the advisor's own text; nothing from the observed
//! output is ever put on a command line.

use advisor_core::{Environment, HostRemedy};

use crate::provenance::{confirmed, proven};
use crate::recognize::{Finding, Kind};

/// Creates a user namespace and writes its id map, as bubblewrap does.
pub const CHECK_UNSHARE: &str = "unshare --user --map-root-user true";

/// Runs bubblewrap itself with the smallest sandbox.
pub const CHECK_BWRAP: &str = "bwrap --ro-bind / / true";

/// The host's limit on user namespaces (0 means none may be made).
pub const CHECK_MAX: &str = "sysctl user.max_user_namespaces";

/// Debian's older switch for unprivileged user namespaces.
pub const CHECK_DEBIAN: &str = "sysctl kernel.unprivileged_userns_clone";

/// Ubuntu's (23.10 and later) AppArmor restriction on unprivileged user namespaces.
pub const CHECK_APPARMOR: &str = "sysctl kernel.apparmor_restrict_unprivileged_userns";

/// Raises the limit above zero (the value is an example).
pub const FIX_MAX: &str = "sudo sysctl -w user.max_user_namespaces=10000";

/// Lets unprivileged users create user namespaces on a Debian-patched kernel.
pub const FIX_DEBIAN: &str = "sudo sysctl -w kernel.unprivileged_userns_clone=1";

/// Lifts Ubuntu's AppArmor restriction for every program on the host.
pub const FIX_APPARMOR_HOST: &str = "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";

/// An AppArmor profile that lets `/usr/bin/bwrap` create user namespaces, one
/// command line per element (shown in the detail).
pub const FIX_APPARMOR_PROFILE: [&str; 2] = [
    "printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap /usr/bin/bwrap \
     flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap",
    "sudo apparmor_parser -r /etc/apparmor.d/bwrap",
];

/// The checks that confirm `kind`, in the order to run them.
pub fn checks(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::NamespaceLimit => &[CHECK_UNSHARE, CHECK_BWRAP, CHECK_MAX],
        Kind::KernelWithoutUserns => &[CHECK_UNSHARE, CHECK_BWRAP],
        Kind::UnprivilegedRefused => &[CHECK_UNSHARE, CHECK_BWRAP, CHECK_MAX, CHECK_DEBIAN],
        Kind::NamespaceRefused | Kind::IdMapRefused => {
            &[CHECK_UNSHARE, CHECK_BWRAP, CHECK_APPARMOR]
        }
        Kind::HelperMissing => &[],
    }
}

/// The host-level commands the user (or the host's administrator) runs.
pub fn fixes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::NamespaceLimit => &[FIX_MAX],
        Kind::UnprivilegedRefused => &[FIX_DEBIAN],
        Kind::IdMapRefused => &[FIX_APPARMOR_HOST],
        Kind::KernelWithoutUserns | Kind::NamespaceRefused | Kind::HelperMissing => &[],
    }
}

/// The host-level commands the advisory names for a proven `finding`: only
/// those whose setting the hook read as the line says (`fixes(kind)` when
/// [`crate::provenance::confirmed`]), never on a forgeable finding.
pub fn confirmed_fixes(finding: &Finding, env: &Environment) -> &'static [&'static str] {
    let read = env.checks.user_namespaces;
    let confirmed = read.is_some_and(|host| confirmed(finding.kind, &host));
    if confirmed && proven(finding, env) {
        fixes(finding.kind)
    } else {
        &[]
    }
}

/// The client's own remedy for `kind`, from the host's table (a host without
/// that knob renders nothing).
pub fn host_remedy(kind: Kind) -> HostRemedy {
    match kind {
        Kind::HelperMissing => HostRemedy::HomeOutsideTemp,
        Kind::NamespaceLimit
        | Kind::KernelWithoutUserns
        | Kind::UnprivilegedRefused
        | Kind::NamespaceRefused
        | Kind::IdMapRefused => HostRemedy::WeakerNestedSandbox,
    }
}

/// The index of `kind` in the per-kind word tables.
pub(crate) fn index(kind: Kind) -> usize {
    match kind {
        Kind::NamespaceLimit => 0,
        Kind::KernelWithoutUserns => 1,
        Kind::UnprivilegedRefused => 2,
        Kind::NamespaceRefused => 3,
        Kind::IdMapRefused => 4,
        Kind::HelperMissing => 5,
    }
}
