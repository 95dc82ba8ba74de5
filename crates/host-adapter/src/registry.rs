//! The standard registry: the shipped families in precedence order, each behind its feature.
//!
//! Order (most specific first; the first family that recognizes an observation owns it):
//! 1. `acl-provisioning` — before the aggregate family, so an aggregate message that
//!    also carries a `…NamedSecurityInfoW failed` line is explained by its cause;
//!    the only fail-fast family.
//! 2. `acl-aggregate-failure`
//! 3. `temp-root-inside-workspace`
//! 4. `pty-startup`
//! 5. `native-init` — an exact loader status outranks a denial stamp on the same value.
//! 6. `cim-wmi-denial` — before `workspace-denial`: a refused cmdlet on an English
//!    host is also stamped `denied: true`, and the CIM code is the more specific fact.
//! 7. `workspace-denial`
//!
//! A harness appends its own families to the returned builder.

use advisor_core::{Registry, RegistryBuilder};

/// The shipped families compiled in by features, in precedence order.
pub fn standard_registry() -> RegistryBuilder {
    let builder = Registry::builder();
    #[cfg(feature = "acl")]
    let builder = builder.fail_fast_family(family_acl::AclProvisioning);
    #[cfg(feature = "acl-aggregate")]
    let builder = builder.family(family_acl_aggregate::AclAggregateFailure);
    #[cfg(feature = "temp-root")]
    let builder = builder.family(family_temp_root::TempRootInsideWorkspace);
    #[cfg(feature = "pty")]
    let builder = builder.family(family_pty::PtyStartup);
    #[cfg(feature = "native-init")]
    let builder = builder.family(family_native_init::NativeInit);
    #[cfg(feature = "cim")]
    let builder = builder.family(family_cim::CimWmiDenial);
    #[cfg(feature = "workspace-denial")]
    let builder = builder.family(family_workspace_denial::WorkspaceDenial);
    #[cfg(feature = "runner-exit")]
    let builder = builder.family(family_runner_exit::RunnerExit);
    #[cfg(feature = "codex-protected-path")]
    let builder = builder.family(family_codex_protected_path::CodexProtectedPath);
    #[cfg(feature = "bwrap-cannot-start")]
    // Gemini CLI's fail-fast family is `bwrap-not-found`: there this one only speaks.
    let builder = builder.fail_fast_family_where(
        family_bwrap_cannot_start::BwrapCannotStart,
        family_bwrap_cannot_start::FAIL_FAST_HOSTS,
    );
    #[cfg(feature = "sandbox-network-denied")]
    let builder = builder.family(family_sandbox_network_denied::SandboxNetworkDenied);
    #[cfg(feature = "ptrace-refused")]
    let builder = builder.family(family_ptrace_refused::PtraceRefused);
    #[cfg(feature = "bwrap-not-found")]
    let builder = builder.fail_fast_family(family_bwrap_not_found::BwrapNotFound);
    #[cfg(feature = "sandbox-write-denied")]
    let builder = builder.family(family_sandbox_write_denied::SandboxWriteDenied);
    #[cfg(feature = "sandbox-socket-denied")]
    let builder = builder.family(family_sandbox_socket_denied::SandboxSocketDenied);
    builder
}
