//! The fourth registering edit: the new family's row in README.md's
//! `## Families` table, which a test holds equal to the registry.

use anyhow::bail;

use super::Names;

/// The heading of the table the row joins.
const SECTION: &str = "\n## Families\n";

/// Appends the family's row to the README's families table: last, as the
/// registry line is last in precedence. What it recognizes is left for the
/// author to write, and its status says it is only scaffolded.
pub fn edit_readme(text: &str, n: &Names) -> anyhow::Result<String> {
    let Some(start) = text.find(SECTION) else {
        bail!("README.md: no `## Families` section");
    };
    let body = start + SECTION.len();
    let end = text[body..].find("\n## ").map_or(text.len(), |i| body + i);
    let mut offset = body;
    let mut last_row = None;
    for line in text[body..end].split_inclusive('\n') {
        offset += line.len();
        if line.starts_with("| `") {
            last_row = Some(offset);
        }
    }
    let Some(at) = last_row else {
        bail!("README.md: the `## Families` section has no table row starting with \"| `\"");
    };
    let hosts: Vec<String> = n.hosts.iter().map(ToString::to_string).collect();
    let row = format!(
        "| `{id}` | {hosts} | (to write: the producer's line it recognizes) | `family-{id}` | scaffolded |\n",
        id = n.id,
        hosts = hosts.join(", "),
    );
    let newline = if text[..at].ends_with('\n') { "" } else { "\n" };
    Ok(format!("{}{newline}{row}{}", &text[..at], &text[at..]))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// `README` edited for a family on `hosts`: the row it gains, or the error.
    fn check(readme: &str, hosts: &[advisor_core::Host], want: Result<&str, &str>) {
        let names = Names::new("dns-blocked").unwrap().on_hosts(hosts);
        match (edit_readme(readme, &names), want) {
            (Ok(edited), Ok(row)) => {
                let added: Vec<&str> = edited
                    .lines()
                    .filter(|l| !readme.lines().any(|old| old == *l))
                    .collect();
                assert_eq!(added, [row], "{edited}");
                let families = edited.split("\n## Next").next().unwrap();
                let rows: Vec<&str> = families.lines().filter(|l| l.starts_with("| `")).collect();
                assert_eq!(rows.last(), Some(&row), "appended last: {edited}");
            }
            (Err(e), Err(needle)) => assert!(e.to_string().contains(needle), "{e}"),
            (got, want) => panic!("got {got:?}, want {want:?}"),
        }
    }

    const TABLE: &str = "# x\n\n## Families\n\ntext\n\n| id | hosts |\n|---|---|\n| `a` | dsh |\n| `b` | codex |\n\nAfter.\n\n## Next\n\n| `z` | not this one |\n";

    #[test]
    fn the_row_lands_after_the_last_family() {
        use advisor_core::Host;
        let dsh = "| `dns-blocked` | dsh | (to write: the producer's line it recognizes) | `family-dns-blocked` | scaffolded |";
        check(TABLE, &[], Ok(dsh));
        check(
            TABLE,
            &[Host::ClaudeCode, Host::Codex],
            Ok(
                "| `dns-blocked` | claude-code, codex | (to write: the producer's line it recognizes) | `family-dns-blocked` | scaffolded |",
            ),
        );
        check("# x\n\n## Families\n\n| `a` | dsh |", &[], Ok(dsh));
        check("# x\n", &[], Err("no `## Families` section"));
        check(
            "# x\n## Families\n\nno table\n\n## Next\n| `z` |\n",
            &[],
            Err("no table row"),
        );
    }

    #[test]
    fn this_workspace_readme_takes_the_row() {
        let root = super::super::workspace_root().unwrap();
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let names = Names::new("dns-blocked").unwrap();
        let edited = edit_readme(&readme, &names).unwrap();
        let families = edited.split(SECTION).nth(1).unwrap();
        let families = families.split("\n## ").next().unwrap();
        assert!(families.contains("| `family-dns-blocked` | scaffolded |\n"));
    }
}
