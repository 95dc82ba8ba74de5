//! The three producers measured under a confining mode, each with its check.

use std::fmt::Write as _;

use advisor_core::{Environment, HostBinary, Platform, SandboxMode};

use crate::recognize::{Finding, MSYS2_SIGNAL_PIPE};

/// The cmd control measured beside the Git-Bash failure (#7877): it starts
/// under the same mode, so it is also the brief's check for producer 1.
pub(crate) const CMD_PROBE: &str = "cmd.exe /c \"echo cmd-ok\"";

/// The PowerShell control measured beside the Git-Bash failure (#7877).
pub(crate) const PWSH_PROBE: &str = "pwsh -NoLogo -NoProfile -Command \"Write-Output pwsh-ok\"";

/// Producer 1: an MSYS2 / Git-Bash program (#7877).
pub(crate) fn msys2(out: &mut String, finding: &Finding, env: &Environment) {
    let _ = writeln!(
        out,
        "1. An MSYS2 or Git-Bash program ({cite}). Under the restricted token the MSYS2 runtime \
         cannot create the pipe it uses for signals, so the program aborts while it is still \
         loading. Measured in that report, same workspace and same mode:\n   \
         - `{CMD_PROBE}` printed cmd-ok and exited 0;\n   \
         - `{PWSH_PROBE}` printed pwsh-ok and \
         exited 0;\n   \
         - `D:\\Git\\bin\\bash.exe -c \"echo bash-ok\"` printed `couldn't create signal pipe, \
         Win32 error 5` and exited -1073741502.\n   \
         Check: was the program that failed bash, sh or another binary from an MSYS2 or Git for \
         Windows install?",
        cite = env.cite(&["#7877"]),
    );
    if finding.msys2_signal_pipe {
        let _ = writeln!(
            out,
            "   This result's stderr carries the runtime's own line (`{MSYS2_SIGNAL_PIPE}`), \
             which is the shape measured for this producer."
        );
    }
    let _ = writeln!(
        out,
        "   If so, this is the one case you can fix yourself: do the same work as a PowerShell or \
         cmd command."
    );
}

/// Producer 2: the packaged desktop app's runner, and the console-less runner in general.
pub(crate) fn console_less_runner(out: &mut String, env: &Environment) {
    let _ = writeln!(
        out,
        "2. A sandbox runner that owns no console ({main}). The harness starts its runner as \
         `[process.execPath, <runner>]`, and in the packaged desktop build process.execPath is \
         the Electron executable, a GUI-subsystem program that never owns a console. What \
         decides is the runner's console, not its token: the confined child inherits the \
         runner's console when there is one, and when there is none it must create its own, \
         which the restricted token is not permitted to do. The captured chain ({chain}): the \
         restricted child creates conhost.exe, conhost.exe exits with 0xC0000022 \
         (STATUS_ACCESS_DENIED), and the child then dies with 0xC0000142. The process-creation \
         flags that switch it on have been measured as well ({flags}). Two console-less shapes \
         share that mechanism:\n   \
         (a) a GUI-subsystem host such as the packaged desktop app, under which every confined \
         command dies this way ({desktop});\n   \
         (b) a real console-subsystem node.exe that started the runner detached \
         (DETACHED_PROCESS): `spawnSync(node, [runner, …], {{ detached: true }})` returned \
         0xC0000142 where the same call without that flag returned 0 ({chain}). This shape \
         needs neither the desktop app nor a particular machine.\n   \
         The token does not separate the two: children of a working host and of a failing one \
         showed identical `whoami /groups` and `whoami /priv` output ({chain}).",
        main = env.cite(&["#8193", "#8208"]),
        chain = env.cite(&["#8208"]),
        flags = env.cite(&["#8336"]),
        desktop = env.cite(&["#8193"]),
    );
    let electron = env.host.binary == HostBinary::Electron;
    let is = if electron { "is" } else { "is not" };
    if env.host.platform != Platform::Win32 {
        let _ = writeln!(
            out,
            "   Check: this host reports platform `{platform}`, so the runner that produced the \
             status ran on another machine (a recorded session or a remote runner). The process \
             running this advisor {is} an Electron binary, but that says nothing about the \
             runner's console; establish it on the machine that ran the command.",
            platform = env.host.platform.as_str(),
        );
    } else if electron {
        let _ = writeln!(
            out,
            "   Check, already answered from this host's own facts: the harness process {is} an \
             Electron binary. Shape (a) applies to this session, and it is the first suspect for \
             every confined command here, not only this one."
        );
    } else {
        let _ = writeln!(
            out,
            "   Check, partly answered from this host's own facts: the harness process {is} an \
             Electron binary, so shape (a) does not apply. Shape (b) still can: find out whether \
             whatever started the runner did so detached, without a console."
        );
    }
}

/// Producer 3: the restricted token's own input (capability SID / default DACL).
pub(crate) fn token_input(out: &mut String, mode: Option<SandboxMode>, env: &Environment) {
    let _ = writeln!(
        out,
        "3. The capability-SID / default-DACL input on the restricted token itself ({both}). \
         One report narrowed the failure to a single input: the capability SID the runner puts \
         in the token's own restricting list ({isolated}). The rule published in 0.20.0, that the \
         composition of the token's restricting list decides, is withdrawn: its own reporter \
         retracted it ({rule}), measuring on Windows 10 19044, so the Windows build is not the \
         variable. As the latest reports state it, the input is the trustee of the access \
         entry the runner merges into the token's default DACL, and the child starts only when \
         all three of these hold: that trustee's SID is an enabled group of the token; the \
         restricting list carries the same SID; and the restricting list still carries the \
         logon SID and Everyone. The older one-part test, that the trustee is one the token \
         itself holds, is necessary but not sufficient on its own.",
        both = env.cite(&["#9186", "#9467"]),
        isolated = env.cite(&["#9186"]),
        rule = env.cite(&["#9467"]),
    );
    if mode == Some(SandboxMode::ReadOnly) {
        let _ = writeln!(
            out,
            "   Check: under read-only the runner takes no write SIDs at all (it rejects \
             --write-sid and --temp-write-sid in that mode), so the path-derived trustee measured \
             under workspace-write was not part of this call. That makes this producer's \
             measured form absent here, not the producer impossible: the third condition applies \
             to every restricted token."
        );
    } else {
        let _ = writeln!(
            out,
            "   Check: a workspace-write call passes write SIDs derived from a path, and no token \
             ever holds a path-derived SID as an enabled group, so the shipped workspace-write \
             call fails the first condition whenever a temp directory exists. Step 1 below is \
             what separates this producer from the other two. No setting repairs it; it needs \
             the backend to name an enabled group in that call."
        );
    }
}
