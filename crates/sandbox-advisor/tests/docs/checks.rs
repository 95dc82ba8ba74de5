//! What a block must be, from the `<!-- check: … -->` above it or, without
//! one, from its language. Each variant says how the block is executed.

use std::path::Path;

use super::markdown::{Block, code_spans};
use super::shell::{Session, commands, parse};

/// The check a block gets.
#[derive(Debug, PartialEq, Eq)]
pub enum Check {
    /// `sh`: every command runs, or has every name it uses checked.
    Commands,
    /// `output of `CMD``: the block is part of what CMD prints.
    OutputOf(String),
    /// `lines of `CMD`, `CMD`…`: each line of the block is a line one of them prints.
    LinesOfCommands(Vec<String>),
    /// `lines of PATH`: each line matches a line of the file (or of a string
    /// in it), `<…>` standing for any text.
    LinesOf(String),
    /// `part of PATH`: the block is part of the file.
    PartOf(String),
    /// `file PATH`: the block is the whole file.
    File(String),
    /// `api of DIR`: every name the sketch calls is a `fn` or type under DIR.
    ApiOf(String),
    /// `config`: the CLI loads it as a `--config` file.
    Config,
    /// `answers of `CMD``: each JSON line (`…` elides) has the keys, in order,
    /// of a line CMD prints with the same `type`.
    AnswersOf(String),
    /// `keys of `CMD``: every quoted name is a key in CMD's JSON output.
    KeysOf(String),
    /// `checked by FILE::FN`: a named test compares the block with its source.
    CheckedBy(String, String),
    /// `json` / `toml` without a directive: it parses.
    Parses,
}

/// The check of `block`, and the files its `with NAME = CONTENT` lines write.
pub fn of(block: &Block) -> Result<(Check, Vec<(String, String)>), String> {
    let Some(directive) = &block.directive else {
        return match block.info.as_str() {
            "sh" => Ok((Check::Commands, Vec::new())),
            "json" | "toml" => Ok((Check::Parses, Vec::new())),
            other => Err(format!(
                "a `{other}` block needs a `<!-- check: … -->` line above it (tests/docs/checks.rs lists them)"
            )),
        };
    };
    let mut lines = directive.lines();
    let head = lines.next().unwrap_or("");
    let mut with: Vec<(String, String)> = Vec::new();
    for l in lines {
        match (
            l.strip_prefix("with ").and_then(|w| w.split_once(" = ")),
            with.last_mut(),
        ) {
            (Some((name, content)), _) => {
                with.push((name.trim().to_owned(), format!("{content}\n")))
            }
            (None, Some((_, content))) => {
                content.push_str(l);
                content.push('\n');
            }
            (None, None) => return Err(format!("`{l}`: expected `with NAME = CONTENT`")),
        }
    }
    let spans = || {
        code_spans(head)
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let one = || {
        spans()
            .into_iter()
            .next()
            .ok_or_else(|| format!("`{head}` names no `command`"))
    };
    let word = |prefix: &str| head[prefix.len()..].trim().to_owned();
    let check = if head.starts_with("output of ") {
        Check::OutputOf(one()?)
    } else if head.starts_with("lines of `") {
        Check::LinesOfCommands(spans())
    } else if head.starts_with("lines of ") {
        Check::LinesOf(word("lines of "))
    } else if head.starts_with("part of ") {
        Check::PartOf(word("part of "))
    } else if head.starts_with("file ") {
        Check::File(word("file "))
    } else if head.starts_with("api of ") {
        Check::ApiOf(word("api of "))
    } else if head == "config" {
        Check::Config
    } else if head.starts_with("answers of ") {
        Check::AnswersOf(one()?)
    } else if head.starts_with("keys of ") {
        Check::KeysOf(one()?)
    } else if let Some(rest) = head.strip_prefix("checked by ") {
        let (file, test) = rest
            .trim()
            .split_once("::")
            .ok_or("`checked by FILE::FN`")?;
        Check::CheckedBy(file.to_owned(), test.to_owned())
    } else {
        return Err(format!("unknown check `{head}`"));
    };
    Ok((check, with))
}

/// Runs `check` on `block`; `Err` says how the block and the truth differ.
pub fn run(block: &Block, check: &Check, s: &mut Session) -> Result<(), String> {
    let body = block.body.as_str();
    let read =
        |path: &str| std::fs::read_to_string(s.root.join(path)).map_err(|e| format!("{path}: {e}"));
    match check {
        Check::Commands => {
            syntax(body)?;
            for command in commands(body)? {
                s.check(&command)?;
            }
            Ok(())
        }
        Check::OutputOf(cmd) => {
            let Some((out, err)) = printed(s, cmd)? else {
                return Ok(());
            };
            if out.contains(body) || err.contains(body) {
                Ok(())
            } else {
                Err(format!(
                    "`{cmd}` no longer prints this; it prints:\n{out}{err}"
                ))
            }
        }
        Check::LinesOfCommands(cmds) => {
            let mut printed_lines = String::new();
            for cmd in cmds {
                let Some((out, err)) = printed(s, cmd)? else {
                    return Ok(());
                };
                printed_lines.push_str(&out);
                printed_lines.push_str(&err);
            }
            missing_lines(body, &printed_lines)
        }
        Check::LinesOf(path) => missing_lines(body, &decoded(&s.root.join(path))?),
        Check::PartOf(path) => read(path)?
            .contains(body)
            .then_some(())
            .ok_or_else(|| format!("{path} does not hold this block")),
        Check::File(path) => (read(path)? == body)
            .then_some(())
            .ok_or_else(|| format!("the block differs from {path}: paste the file")),
        Check::ApiOf(dir) => api(body, &s.root.join(dir)),
        Check::Config => {
            let name = format!("config.{}", block.info);
            s.sandbox.write(&name, body)?;
            let line = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
            let args = ["explain", "--config", &name, line].map(String::from);
            match s.advisor(&Default::default(), &args)? {
                Some(out) if out.code != 0 => Err(format!("--config refuses it: {}", out.stderr)),
                _ => Ok(()),
            }
        }
        Check::AnswersOf(cmd) => {
            let Some((out, _)) = printed(s, cmd)? else {
                return Ok(());
            };
            super::answers::same_shapes(body, &out)
        }
        Check::KeysOf(cmd) => {
            let Some((out, _)) = printed(s, cmd)? else {
                return Ok(());
            };
            super::answers::keys_present(body, &out)
        }
        Check::CheckedBy(file, test) => {
            let text = read(file)?;
            let doc = block.at.split(':').next().unwrap_or("");
            if !text.contains(&format!("fn {test}(")) {
                return Err(format!("{file} has no test `{test}`"));
            }
            text.contains(doc)
                .then_some(())
                .ok_or_else(|| format!("{file} never reads {doc}"))
        }
        Check::Parses => match block.info.as_str() {
            "json" => serde_json::from_str::<serde_json::Value>(body)
                .map(drop)
                .or_else(|_| {
                    body.lines()
                        .try_for_each(|l| serde_json::from_str::<serde_json::Value>(l).map(drop))
                })
                .map_err(|e| format!("not JSON: {e}")),
            _ => body
                .parse::<toml::Table>()
                .map(drop)
                .map_err(|e| format!("not TOML: {e}")),
        },
    }
}

/// What `cmd` (a `sandbox-advisor …` line) prints: stdout and stderr, or
/// `None` when a service it needs is missing and not required.
fn printed(s: &mut Session, cmd: &str) -> Result<Option<(String, String)>, String> {
    let c = parse(cmd)?;
    let (program, args) = c.words.split_first().ok_or("an empty command")?;
    if program != "sandbox-advisor" {
        return Err(format!(
            "`{cmd}`: only `sandbox-advisor` commands are run for their output"
        ));
    }
    Ok(s.advisor(&c, args)?.map(|o| (o.stdout, o.stderr)))
}

/// `bash -n`: the block is valid shell.
fn syntax(body: &str) -> Result<(), String> {
    let out = std::process::Command::new("bash")
        .args(["-n", "-c", body])
        .output()
        .map_err(|e| format!("bash: {e}"))?;
    out.status
        .success()
        .then_some(())
        .ok_or_else(|| format!("not valid shell: {}", String::from_utf8_lossy(&out.stderr)))
}

/// Every line of `block` matches a line of `text`; `<…>` matches any text.
fn missing_lines(block: &str, text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    for want in block.lines() {
        if !lines.iter().any(|l| matches(want, l)) {
            return Err(format!("no such line: {want}"));
        }
    }
    Ok(())
}

fn matches(pattern: &str, line: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = pattern;
    while let Some((lit, after)) = rest.split_once('<') {
        match after.split_once('>') {
            Some((_, tail)) => {
                parts.push(lit);
                rest = tail;
            }
            None => break,
        }
    }
    if parts.is_empty() {
        return line == pattern;
    }
    parts.push(rest);
    let mut at = 0;
    for (i, part) in parts.iter().enumerate() {
        let found = if i == 0 {
            line.starts_with(part).then_some(0)
        } else if i == parts.len() - 1 {
            (line.len() >= at + part.len() && line.ends_with(part)).then(|| line.len() - part.len())
        } else {
            line[at..].find(part).map(|k| at + k)
        };
        let Some(k) = found else { return false };
        at = k + part.len();
    }
    true
}

/// The text of `path` (every file under it, for a directory), each file's
/// lines followed by the lines of every JSON string it holds.
fn decoded(path: &Path) -> Result<String, String> {
    let mut out = String::new();
    let mut files = vec![path.to_path_buf()];
    while let Some(file) = files.pop() {
        if file.is_dir() {
            files.extend(
                std::fs::read_dir(&file)
                    .map_err(|e| e.to_string())?
                    .flatten()
                    .map(|e| e.path()),
            );
            continue;
        }
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        out.push_str(&text);
        out.push('\n');
        for line in text.lines() {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(line) {
                strings(&value, &mut out);
            }
        }
    }
    Ok(out)
}

fn strings(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Every method, function and type the sketch names exists under `dir`.
fn api(body: &str, dir: &Path) -> Result<(), String> {
    let source = decoded(dir)?;
    let mut code: String = body
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    while let Some((before, after)) = code.split_once("/*") {
        code = format!(
            "{before}{}",
            after.split_once("*/").map_or("", |(_, rest)| rest)
        );
    }
    let ident = |s: &str| {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<String>()
    };
    let mut names = Vec::new();
    for (i, _) in code.match_indices('.') {
        let name = ident(&code[i + 1..]);
        if !name.is_empty() && code[i + 1 + name.len()..].starts_with('(') {
            names.push(("fn", name));
        }
    }
    for (i, _) in code.match_indices("::") {
        let name = ident(&code[i + 2..]);
        if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            names.push(("type", name));
        }
    }
    for (kind, name) in names {
        let declared = match kind {
            "fn" => {
                source.contains(&format!("fn {name}(")) || source.contains(&format!("fn {name}<"))
            }
            _ => {
                ["struct", "enum", "trait", "type"]
                    .iter()
                    .any(|k| source.contains(&format!("{k} {name}")))
                    || source.contains(&format!("    {name},"))
                    || source.contains(&format!("    {name}("))
            }
        };
        if !declared {
            return Err(format!(
                "`{name}` ({kind}) is not declared under {}",
                dir.display()
            ));
        }
    }
    Ok(())
}
