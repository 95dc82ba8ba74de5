//! The failures gen-log writes for the families, each in its producer's exact
//! shape (`/work/shared/reference/producers.md`).
//!
//! [`shapes`] is the one list of them: the generator, its forced-appearance
//! schedule and its tests all read it, and nothing else in xtask names a
//! family. It is written out here until the family crates export their
//! producer samples (`testing::samples()`, behind a `testing` feature); then
//! its body becomes one call that maps those samples to [`Shape`]s.

use serde_json::{Value, json};

use super::output::{foreground, render};
use super::rng::Rng;

/// One family's failure, as gen-log writes it.
pub struct Shape {
    /// The id the family registers under (`sandbox-advisor families`).
    pub family: &'static str,
    /// Text of which every failure of this shape holds at least one (what
    /// the tests look for in a log).
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests"))]
    pub evidence: &'static [&'static str],
    /// Builds one failure for an agent whose session's workspace root is
    /// `cwd`.
    pub build: fn(&mut Rng, &str) -> Post,
}

/// A `post` line's call and outcome: the rest (agent, session, call id) is
/// the log's.
pub struct Post {
    /// The tool that ran.
    pub tool: &'static str,
    /// Its arguments.
    pub args: Value,
    /// `("error", failure)` or `("result", value)`.
    pub outcome: (&'static str, Value),
}

/// Every family's shape, in the order their forced first appearances are
/// spread over the log (the registry's precedence order).
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            family: "acl-provisioning",
            evidence: &[
                r#""message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite("#,
                "Runner failure: windows-acl-run: SetNamedSecurityInfoW failed (Win32 5): grantWrite(",
            ],
            build: acl,
        },
        Shape {
            family: "acl-aggregate-failure",
            evidence: &[
                r#""message":"sandbox-local windows-acl temp grant materialization failed"#,
            ],
            build: acl_aggregate,
        },
        Shape {
            family: "temp-root-inside-workspace",
            evidence: &[
                r#""message":"Windows ACL temp root must be outside the workspace: workspace="#,
            ],
            build: temp_root,
        },
        Shape {
            family: "pty-startup",
            evidence: &[r#""message":"PTY shell exited during startup""#],
            build: pty,
        },
        Shape {
            family: "native-init",
            evidence: &[r#""exitCode":-1073741502"#, r#""exitCode":3221225794"#],
            build: native_init,
        },
        Shape {
            family: "cim-wmi-denial",
            evidence: &["HRESULT 0x80041003"],
            build: cim,
        },
        Shape {
            family: "workspace-denial",
            evidence: &[r#""command":"Set-Content -Path D:\\ws\\"#],
            build: workspace_denial,
        },
    ]
}

const UNAVAILABLE: &str = "sandbox mode \"workspace-write\" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: ";
const CIM_RECORD: &str = "Get-CimInstance : Access is denied. \r\n+ CategoryInfo          : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\r\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand\r\n";
const DENIAL_MARKER: &str = "[sandbox: file access denied under workspace-write mode]\n[sandbox: escalation available — retry this exact command once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]";

/// A harness failure: its message, its members, the rendered `Error: …`.
fn failure(message: String, members: Vec<String>) -> (&'static str, Value) {
    let content = format!("Error: {message}");
    (
        "error",
        json!({"message": message, "members": members, "content": content}),
    )
}

/// A shell tool's finished foreground value and its rendering.
fn shell(
    exit: i64,
    stdout: &str,
    stderr: &str,
    stamp: Value,
    marker: Option<&str>,
) -> (&'static str, Value) {
    let content = render(stdout, stderr, exit, marker);
    let value = foreground(exit, stdout, stderr, Some(stamp));
    ("result", json!({"value": value, "content": content}))
}

/// The executor's `workspace-write` stamp.
fn workspace_write(denied: bool) -> Value {
    json!({"mode": "workspace-write", "denied": denied, "enforcement": "partial"})
}

fn get_child_item() -> Value {
    json!({"command": "Get-ChildItem"})
}

fn acl(rng: &mut Rng, cwd: &str) -> Post {
    let line = format!(r"SetNamedSecurityInfoW failed (Win32 5): grantWrite({cwd})");
    let message = if rng.chance(20) {
        format!("{UNAVAILABLE}windows-acl-run: {line}")
    } else {
        line
    };
    Post {
        tool: "pwsh",
        args: get_child_item(),
        outcome: failure(message, Vec::new()),
    }
}

fn acl_aggregate(rng: &mut Rng, _cwd: &str) -> Post {
    let member = format!(
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\Users\dev\AppData\Local\Temp\dsh-{:06x})",
        rng.below(1 << 24)
    );
    let message =
        "sandbox-local windows-acl temp grant materialization failed and its cleanup also failed";
    let members = vec![
        member,
        "AclWriteGrant dispose completed with 1 cleanup failure(s)".to_owned(),
    ];
    Post {
        tool: "bash",
        args: get_child_item(),
        outcome: failure(message.to_owned(), members),
    }
}

fn temp_root(_rng: &mut Rng, cwd: &str) -> Post {
    let message = format!(
        r"Windows ACL temp root must be outside the workspace: workspace={cwd}; temp={cwd}\.tmp"
    );
    Post {
        tool: "pwsh",
        args: get_child_item(),
        outcome: failure(message, Vec::new()),
    }
}

fn pty(rng: &mut Rng, _cwd: &str) -> Post {
    let message = "PTY shell exited during startup".to_owned();
    let tool = *rng.pick(&["bash-persistent", "pwsh-persistent"]);
    Post {
        tool,
        args: get_child_item(),
        outcome: failure(message, Vec::new()),
    }
}

fn native_init(rng: &mut Rng, _cwd: &str) -> Post {
    let exit = if rng.chance(50) {
        -1_073_741_502
    } else {
        3_221_225_794
    };
    let stderr = "      0 [main] bash (1234) couldn't create signal pipe, Win32 error 5\n";
    Post {
        tool: "pwsh",
        args: json!({"command": r#"D:\Git\bin\bash.exe -c "echo bash-ok""#}),
        outcome: shell(exit, "", stderr, workspace_write(false), None),
    }
}

fn cim(_rng: &mut Rng, _cwd: &str) -> Post {
    Post {
        tool: "pwsh",
        args: json!({"command": "Get-CimInstance Win32_OperatingSystem"}),
        outcome: shell(
            1,
            "",
            CIM_RECORD,
            workspace_write(true),
            Some(DENIAL_MARKER),
        ),
    }
}

fn workspace_denial(_rng: &mut Rng, cwd: &str) -> Post {
    let stderr = format!(
        "Set-Content : Access to the path '{cwd}\\node_modules\\.cache\\state.json' is denied.\r\n"
    );
    Post {
        tool: "pwsh",
        args: json!({
            "command": format!(r"Set-Content -Path {cwd}\node_modules\.cache\state.json -Value x")
        }),
        outcome: shell(1, "", &stderr, workspace_write(true), Some(DENIAL_MARKER)),
    }
}
