//! Every `cargo xtask …` command the documentation shows parses as one of
//! these tasks, with the flags it has: README.md and docs/ name no task or
//! flag that was renamed or removed. (The other documented commands are run
//! by `crates/sandbox-advisor/tests/docs`.)

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::path::{Path, PathBuf};

    use clap::Parser;

    use crate::Cli;

    /// README.md and every Markdown file under docs/.
    fn doc_files(root: &Path) -> Vec<PathBuf> {
        let mut files = vec![root.join("README.md")];
        let mut dirs = vec![root.join("docs")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    files.push(path);
                }
            }
        }
        files
    }

    /// The `cargo xtask …` commands of `text`: lines of its blocks and code spans.
    fn commands(text: &str) -> Vec<String> {
        let lines = text.lines().map(str::trim);
        let spans = text.split('`').skip(1).step_by(2);
        lines
            .chain(spans)
            .filter_map(|l| l.strip_prefix("cargo xtask "))
            .map(|rest| rest.split(" #").next().unwrap_or("").trim().to_owned())
            .collect()
    }

    /// Parses `rest` as `cargo xtask <rest>`; `Err` is clap's message.
    fn check(rest: &str) -> Result<(), String> {
        let words = std::iter::once("cargo xtask").chain(rest.split_whitespace());
        Cli::try_parse_from(words)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn docs_commands_parse() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut seen = 0;
        let mut failures = Vec::new();
        for file in doc_files(&root) {
            let text = std::fs::read_to_string(&file).unwrap();
            for rest in commands(&text) {
                seen += 1;
                if let Err(e) = check(&rest) {
                    failures.push(format!("{}: `cargo xtask {rest}`: {e}", file.display()));
                }
            }
        }
        assert!(seen >= 5, "only {seen} `cargo xtask` commands found");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn a_renamed_task_or_flag_is_refused() {
        for (rest, ok) in [
            ("inject --jobs 2", true),
            ("new-family dns-blocked --host codex", true),
            ("instructions --update", true),
            ("inject --job 2", false),
            ("injection", false),
            ("new-family", false),
        ] {
            assert_eq!(check(rest).is_ok(), ok, "{rest}: {:?}", check(rest));
        }
    }
}
