//! The fenced blocks of the documentation, each with the check written above it.

use std::path::{Path, PathBuf};

/// One fenced code block.
#[derive(Debug, Clone)]
pub struct Block {
    /// Where it starts: `docs/protocol.md:85`.
    pub at: String,
    /// The info string's first word (`sh`, `json`, `rust,ignore` → `rust,ignore`).
    pub info: String,
    /// The lines between the fences, the opening fence's indent removed.
    pub body: String,
    /// The text of a `<!-- check: … -->` comment on the lines just above, if any.
    pub directive: Option<String>,
}

/// README.md and every Markdown file under docs/, in a stable order.
pub fn doc_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files[1..].sort();
    files
}

/// The fenced blocks of `text` (the file `name`), in order.
pub fn blocks(name: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = line.len() - trimmed.len();
        let start = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim() != "```" {
            let l = lines[i];
            body.push(
                l.get(indent..)
                    .filter(|_| l[..indent].trim().is_empty())
                    .unwrap_or(l.trim_start()),
            );
            i += 1;
        }
        let mut body = body.join("\n");
        body.push('\n');
        out.push(Block {
            at: format!("{name}:{}", start + 1),
            info: info.trim().to_owned(),
            body,
            directive: directive_above(&lines[..start]),
        });
        i += 1;
    }
    out
}

/// The `<!-- check: … -->` comment ending on the last non-blank line of `above`.
fn directive_above(above: &[&str]) -> Option<String> {
    let end = above.iter().rposition(|l| !l.trim().is_empty())?;
    if !above[end].trim_end().ends_with("-->") {
        return None;
    }
    let start = (0..=end).rev().find(|&k| above[k].contains("<!--"))?;
    let comment: Vec<&str> = above[start..=end].iter().map(|l| l.trim()).collect();
    let comment = comment.join("\n");
    let inner = comment
        .split_once("<!--")?
        .1
        .trim_end()
        .strip_suffix("-->")?
        .trim();
    inner.strip_prefix("check:").map(|d| d.trim().to_owned())
}

/// Every `` `…` `` span of `text`, in order.
pub fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The commands named in the prose of `text` (outside fenced blocks and
/// comments): code spans that start with `cargo ` or `sandbox-advisor `,
/// with the line each is on. A span with a placeholder (`<id>`, `…`) is a
/// pattern, not a command, and is left out.
pub fn prose_commands(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut comment = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if line.contains("<!--") {
            comment = true;
        }
        if !fenced && !comment {
            for span in code_spans(line) {
                let command = span.starts_with("cargo ") || span.starts_with("sandbox-advisor ");
                if command && !span.contains(['<', '…']) {
                    out.push((i + 1, span.to_owned()));
                }
            }
        }
        if line.contains("-->") {
            comment = false;
        }
    }
    out
}
