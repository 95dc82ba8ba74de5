//! `sandbox-advisor scan` as a user runs it: the bundled recordings, the three
//! formats of the report, a corrupt file among good ones, the example docs/scan/report.md shows.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{repo_root, run_in};
use serde_json::Value;

/// The bundled recordings a newcomer scans (docs/scan/report.md, "The bundled recordings").
const BUNDLED: [&str; 2] = ["examples/transcripts", "scan-fixtures/dsh-writer/out/zstd"];

/// What one run must show.
struct Want<'a> {
    code: i32,
    stdout: &'a [&'a str],
    stderr: &'a [&'a str],
}

/// Runs `sandbox-advisor scan <args>` in the repository root and checks it.
fn check(args: &[&str], want: Want<'_>) -> common::Run {
    let mut line = vec!["scan", "--no-progress"];
    line.extend_from_slice(args);
    let run = run_in(&repo_root(), &line, "");
    assert_eq!(
        run.code, want.code,
        "exit of {line:?}; stderr: {}",
        run.stderr
    );
    for needle in want.stdout {
        assert!(
            run.stdout.contains(needle),
            "stdout of {line:?} lacks {needle:?}:\n{}",
            run.stdout
        );
    }
    for needle in want.stderr {
        assert!(
            run.stderr.contains(needle),
            "stderr of {line:?} lacks {needle:?}:\n{}",
            run.stderr
        );
    }
    run
}

fn json(args: &[&str]) -> Value {
    let mut line = vec!["--format", "json"];
    line.extend_from_slice(args);
    let run = check(
        &line,
        Want {
            code: 0,
            stdout: &[],
            stderr: &[],
        },
    );
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn the_docs_show_the_bundled_scan_as_it_is() {
    let run = check(
        &BUNDLED,
        Want {
            code: 0,
            stdout: &["Per family"],
            stderr: &[],
        },
    );
    assert_eq!(run.stderr, "", "a clean scan says nothing on stderr");
    let doc = std::fs::read_to_string(repo_root().join("docs/scan/report.md")).unwrap();
    let command = format!("sandbox-advisor scan {}", BUNDLED.join(" "));
    assert!(
        doc.contains(&command),
        "docs/scan/report.md does not show `{command}`"
    );
    // On Windows the walk joins what it finds with `\\` onto the argument's
    // `/`; the docs (and this report, which holds no other `\\`) show `/`.
    let stdout = match cfg!(windows) {
        true => run.stdout.replace('\\', "/"),
        false => run.stdout.clone(),
    };
    let block = format!("```text\n{stdout}```");
    assert!(
        doc.contains(&block),
        "docs/scan/report.md's scan output has drifted; it is now:\n{}",
        run.stdout
    );
}

#[test]
fn every_family_of_the_bundled_recordings_is_found_once_per_session() {
    let report = json(&BUNDLED);
    assert_eq!(report["schema"], 2);
    let families: Vec<(&str, u64, u64)> = report["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["family"].as_str().unwrap(),
                f["sessions"].as_u64().unwrap(),
                f["would_speak"].as_u64().unwrap(),
            )
        })
        .collect();
    for family in [
        "codex-protected-path",
        "bwrap-cannot-start",
        "sandbox-network-denied",
        "acl-provisioning",
    ] {
        let Some((_, sessions, spoke)) = families.iter().find(|f| f.0 == family) else {
            panic!("{family} not found in {families:?}");
        };
        assert_eq!(
            sessions, spoke,
            "{family}: one advisory per session with a failure"
        );
    }
}

/// The gate decides what a family is charged: Codex refusing `touch` outside
/// the workspace is recognized by `codex-protected-path`, whose gate defers
/// it (not a protected name) to `sandbox-write-denied`, which a scan can only
/// withhold (it needs the live host's mount and Codex's configuration): it
/// costs neither family a failure and is counted by reason. A background
/// task never reported done (Claude Code) and a command Codex stopped waiting
/// for are unresolved, not successes.
#[test]
fn declines_and_unfinished_calls_are_counted_apart() {
    let report = json(&["examples/transcripts"]);
    assert_eq!(report["input"]["unresolved_calls"], 2);
    let protected = report["families"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "codex-protected-path")
        .unwrap();
    assert_eq!(protected["declined"], serde_json::json!([]));
    let write = report["families"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "sandbox-write-denied")
        .unwrap();
    assert_eq!(write["failing_calls"], 0);
    assert_eq!(
        write["withheld"],
        serde_json::json!([{"reason": "codex-config-unreadable", "calls": 2, "sessions": 1}])
    );
    // Only `git-commit-protected.jsonl`'s two refusals are its failures.
    assert_eq!(protected["failing_calls"], 2);
    assert_eq!(protected["sessions"], 1);
}

/// A `--fork-session` file starts with copies of its parent's responses; read
/// together, each response counts once. By the scripted model's figures
/// (`clients/model-server.mjs`, `claudeUsage`): the parent's two responses,
/// turn 0 (3 + 4,000 written + 40 out = 4,043) and turn 1 (4 + 150 written +
/// 4,000 read + 49 out = 4,203), then the fork's own answer, turn 1 again
/// (4,203): 12,449, what the fork's file alone holds.
#[test]
fn a_forks_copies_are_counted_once() {
    let dir = "examples/transcripts/claude-code";
    let both = json(&[&format!("{dir}/fork.jsonl"), &format!("{dir}/fork.2.jsonl")]);
    assert_eq!(both["input"]["tokens"]["total"], 12_449);
    assert_eq!(both["input"]["tokens"]["cache_read"], 8_000);
    let parent = json(&[&format!("{dir}/fork.jsonl")]);
    assert_eq!(parent["input"]["tokens"]["total"], 4_043 + 4_203);
}

#[test]
fn two_workers_report_what_one_does() {
    let one = json(&["--jobs", "1", BUNDLED[0], BUNDLED[1]]);
    let two = json(&["--jobs", "2", BUNDLED[0], BUNDLED[1]]);
    assert_eq!(one, two);
}

#[test]
fn a_corrupt_file_is_named_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_root();
    let good = root.join("examples/transcripts/codex/git-commit-protected.jsonl");
    std::fs::copy(&good, dir.path().join("rollout-good.jsonl")).unwrap();
    let mut torn = std::fs::read(&good).unwrap();
    torn.truncate(torn.len() / 2);
    torn.extend_from_slice(b"\n{not json\n");
    std::fs::write(dir.path().join("rollout-torn.jsonl"), torn).unwrap();
    let path = dir.path().to_str().unwrap();
    let run = check(
        &["--format", "json", path],
        Want {
            code: 0,
            stdout: &["codex-protected-path"],
            stderr: &["rollout-torn.jsonl:"],
        },
    );
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["input"]["files"], 2);
    assert!(report["input"]["problems_total"].as_u64().unwrap() >= 1);
}

#[test]
fn html_and_out_write_one_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cost.html");
    let out_arg = out.to_str().unwrap();
    let run = check(
        &["--format", "html", "--out", out_arg, BUNDLED[0]],
        Want {
            code: 0,
            stdout: &[],
            stderr: &["sandbox-advisor: scan: the report (11 sessions) is in "],
        },
    );
    assert_eq!(run.stdout, "", "the report went to the file");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "{}",
        &page[..80.min(page.len())]
    );
    assert!(page.contains("bwrap-cannot-start"));
    // Nothing is fetched: no source or link attribute, and the policy forbids loads.
    for fetch in ["src=", "href=", "url(", "@import"] {
        assert!(!page.contains(fetch), "the page fetches through {fetch:?}");
    }
    assert!(
        page.contains("default-src 'none'"),
        "the page states its policy"
    );
}

/// Runs `scan --format json` with no path, `HOME` set to `home` and no client
/// variable set.
fn scan_home(home: &std::path::Path) -> common::Run {
    common::run_command(
        std::process::Command::new(common::BIN)
            .current_dir(home)
            .env_clear()
            .env("HOME", home)
            .args(["scan", "--no-progress", "--format", "json"]),
        "",
    )
}

/// `text` with Windows' path separators written as `/`.
fn slashed(text: &str) -> String {
    text.replace('\\', "/")
}

#[test]
fn no_path_reads_the_clients_own_folders() {
    let home = tempfile::tempdir().unwrap();
    let none = scan_home(home.path());
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(
        none.stderr.contains("none of the clients' folders exists")
            && slashed(&none.stderr).contains(".claude/projects"),
        "{}",
        none.stderr
    );
    let projects = home.path().join(".claude/projects/p");
    std::fs::create_dir_all(&projects).unwrap();
    std::fs::copy(
        repo_root().join("examples/transcripts/claude-code/sandbox-no-userns.jsonl"),
        projects.join("s.jsonl"),
    )
    .unwrap();
    // A link in a folder's place is not followed (Unix's links; off Unix the
    // folder is simply absent, and the count below is the same).
    std::fs::create_dir(home.path().join(".codex")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&projects, home.path().join(".codex/sessions")).unwrap();
    let run = scan_home(home.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr
            .matches("sandbox-advisor: scan: reading ")
            .count(),
        1,
        "{}",
        run.stderr
    );
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["input"]["sessions"], 1);
    assert_eq!(report["families"][0]["family"], "bwrap-cannot-start");
}

#[test]
fn no_path_reads_gemini_cli_s_project_chats() {
    let home = tempfile::tempdir().unwrap();
    let none = scan_home(home.path());
    assert!(
        slashed(&none.stderr).contains(".gemini/tmp/*/chats"),
        "{}",
        none.stderr
    );
    // The recorded home: two projects' chats. Beside them, what Gemini also
    // keeps in a project's folder is not read, and a link is not followed.
    let recorded = repo_root().join("scan-fixtures/gemini-cli/home/.gemini/tmp");
    let tmp = home.path().join(".gemini/tmp");
    for project in ["proj", "nobwrap"] {
        let chats = tmp.join(project).join("chats");
        std::fs::create_dir_all(&chats).unwrap();
        for file in std::fs::read_dir(recorded.join(project).join("chats")).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, chats.join(file.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(tmp.join("proj/logs.json"), "[]").unwrap();
    std::fs::create_dir_all(tmp.join("linked")).unwrap();
    // Windows: no link is made (it needs a privilege), the folder stays empty.
    #[cfg(unix)]
    std::os::unix::fs::symlink(tmp.join("proj/chats"), tmp.join("linked/chats")).unwrap();
    let run = scan_home(home.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr
            .matches("sandbox-advisor: scan: reading ")
            .count(),
        2,
        "{}",
        run.stderr
    );
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["input"]["formats"],
        serde_json::json!([{"format": "gemini-cli", "sessions": 3}])
    );
    assert_eq!(report["input"]["marked_results"], 1);
    let bwrap = report["families"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "bwrap-not-found")
        .cloned()
        .unwrap_or_default();
    assert_eq!(bwrap["would_speak"], 1, "{:#}", report["families"]);
    // GEMINI_CLI_HOME is Gemini's home when set.
    let elsewhere = tempfile::tempdir().unwrap();
    let moved = common::run_command(
        std::process::Command::new(common::BIN)
            .current_dir(elsewhere.path())
            .env_clear()
            .env("HOME", elsewhere.path())
            .env("GEMINI_CLI_HOME", home.path())
            .args(["scan", "--no-progress", "--format", "json"]),
        "",
    );
    assert_eq!(moved.code, 0, "{}", moved.stderr);
    let report: Value = serde_json::from_str(&moved.stdout).unwrap();
    assert_eq!(report["input"]["sessions"], 3);
}

/// `scan` reads no configuration file, so its help names none (issue 39).
#[test]
fn the_help_names_no_config() {
    let run = run_in(&repo_root(), &["scan", "--help"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("--locale <LOCALE>"), "{}", run.stdout);
    assert!(!run.stdout.contains("config's"), "{}", run.stdout);
    assert!(!run.stdout.contains("--config"), "{}", run.stdout);
}

#[test]
fn a_path_that_is_not_there_is_a_usage_error() {
    check(
        &["no/such/dir"],
        Want {
            code: 2,
            stdout: &[],
            stderr: &["scan: no/such/dir:"],
        },
    );
    // No path at all is not an error: `no_path_reads_the_clients_own_folders`.
}

/// A file name that is not UTF-8 (issue 36, item 12): found by the walk and
/// read when named, shown lossily and escaped on stderr and in the report,
/// never refused or left out for its name.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_and_shown_escaped() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"\xff\x1b[2J-s.jsonl");
    let path = dir.path().join(name);
    let mut text =
        std::fs::read(repo_root().join("examples/transcripts/claude-code/sandbox-no-userns.jsonl"))
            .unwrap();
    // A broken last line, so the report names the file.
    text.extend_from_slice(b"{broken\n");
    std::fs::write(&path, text).unwrap();
    for given in [dir.path(), path.as_path()] {
        let run = std::process::Command::new(common::BIN)
            .args(["scan", "--no-progress", "--format", "json"])
            .arg(given)
            .current_dir(repo_root())
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr),
        );
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["input"]["sessions"], 1, "{stdout}");
        let named = report["input"]["problems"][0]["path"].as_str().unwrap();
        assert!(named.ends_with("\u{fffd}\u{1b}[2J-s.jsonl"), "{named:?}");
        assert!(
            !stderr.contains('\u{1b}'),
            "a raw escape reached stderr: {stderr:?}"
        );
        assert!(stderr.contains("\u{fffd}"), "{stderr}");
    }
}

/// Past 4,096 entries of `.gemini/tmp`, no more project is looked at.
#[test]
fn gemini_cli_s_projects_are_looked_at_within_their_bound() {
    let home = tempfile::tempdir().unwrap();
    let tmp = home.path().join(".gemini/tmp");
    for n in 0..=4_096 {
        std::fs::create_dir_all(tmp.join(format!("p{n}/chats"))).unwrap();
    }
    let run = scan_home(home.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr
            .matches("sandbox-advisor: scan: reading ")
            .count(),
        4_096,
        "the projects looked at"
    );
}

/// The scan's Gemini CLI reader hands the families what the hook hands them:
/// every recorded `AfterTool` payload of `run_shell_command`
/// (`docs/hooks/gemini-cli/`), put in the form a chat records it (the
/// output as `response.output`; a marked refusal as `status: "error"` with
/// Gemini's request as `response.error` and the display beside it), reads
/// to the same outcome through both.
#[test]
fn gemini_results_are_read_as_the_hook_reads_them() {
    use session_scan::model::{Problem, Record, SessionHeader, Sink};
    #[derive(Default)]
    struct Outcomes(Vec<advisor_core::Outcome>);
    impl Sink for Outcomes {
        fn begin(&mut self, _: SessionHeader) {}
        fn record(&mut self, record: Record) {
            if let Record::Result { outcome, .. } = record {
                self.0.push(outcome);
            }
        }
        fn end(&mut self) {}
        fn problem(&mut self, p: Problem) {
            panic!("{p:?}");
        }
    }
    let dir = repo_root().join("docs/hooks/gemini-cli");
    let mut read = 0;
    let mut marked = 0;
    for file in std::fs::read_dir(&dir).unwrap() {
        let file = file.unwrap().path();
        if !file.to_string_lossy().ends_with(".AfterTool.json") {
            continue;
        }
        let payload: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        if payload["tool_name"] != "run_shell_command" {
            continue;
        }
        let response = &payload["tool_response"];
        let raw = serde_json::value::RawValue::from_string(response.to_string()).unwrap();
        let hooked = sandbox_advisor::hook::gemini_cli::response::read(&raw)
            .unwrap()
            .outcome();
        let call = if response["error"]["type"] == "sandbox_expansion_required" {
            marked += 1;
            serde_json::json!({"id": "c", "name": "run_shell_command", "args": {"command": "x"},
                "status": "error", "resultDisplay": response["returnDisplay"],
                "result": [{"functionResponse": {"response": {"error": response["error"]["message"]}}}]})
        } else {
            serde_json::json!({"id": "c", "name": "run_shell_command", "args": {"command": "x"},
                "status": "success",
                "result": [{"functionResponse": {"response": {"output": response["llmContent"]}}}]})
        };
        let chat = format!(
            "{}\n{}\n",
            serde_json::json!({"sessionId": "s", "projectHash": "h"}),
            serde_json::json!({"id": "m", "type": "gemini", "toolCalls": [call]})
        );
        let mut outcomes = Outcomes::default();
        let budget = session_scan::budget::Budget::new(session_scan::Limits::default());
        session_scan::source::gemini::read(&file, &mut chat.as_bytes(), &mut outcomes, &budget);
        assert_eq!(outcomes.0, [hooked], "{}", file.display());
        read += 1;
    }
    // The recordings hold both forms.
    assert!(
        read >= 10 && marked >= 4,
        "{read} payloads, {marked} marked"
    );
}
