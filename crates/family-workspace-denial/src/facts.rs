//! What the brief and the detail both read: the read-only check for each
//! named path and for the root, and how many paths are listed.

use advisor_core::Untrusted;
use advisor_core::quote::PathSlot;

use crate::named::NamedPath;

/// How many named paths the text lists before it counts the rest.
pub(crate) const LISTED: usize = 3;

/// What a check line shows in place of the one named path it cannot carry.
const PATH_PLACEHOLDER: &str = "<path>";

/// The same, numbered, when the text lists several paths.
const PATH_PLACEHOLDERS: [&str; LISTED] = ["<path 1>", "<path 2>", "<path 3>"];

/// What a check line shows in place of a root it cannot carry.
const ROOT_PLACEHOLDER: &str = "<workspace root>";

/// One path's read-only check: the command line, and why a placeholder
/// stands in for the path when it does. The brief and the detail print the
/// same line.
pub(crate) struct Check {
    pub(crate) line: String,
    pub(crate) refused: Option<Refused>,
}

/// Why a check line shows a placeholder: the detail's sentence, and the
/// placeholder the brief names.
pub(crate) struct Refused {
    /// The detail's sentence.
    pub(crate) sentence: String,
    /// What stands in for it.
    pub(crate) placeholder: &'static str,
}

impl Check {
    /// `icacls` on `path` in PowerShell, the path as a single-quoted literal
    /// (PowerShell expands nothing inside one), or the placeholder when the
    /// path fails core's command-path check; `what` names it in that sentence.
    fn new(path: &Untrusted, placeholder: &'static str, what: &str) -> Self {
        let slot = PathSlot::new(path, placeholder);
        let refused = slot.refusal().map(|why| Refused {
            sentence: format!(
                "{what} {shown} is not written into the check below, because {why}; the check \
                 shows {placeholder} in its place. Substitute the real path yourself, after \
                 checking its name.\n",
                shown = path.inline(),
            ),
            placeholder,
        });
        Self {
            line: format!("    PowerShell: icacls {}\n", slot.powershell()),
            refused,
        }
    }
}

/// The checks for the listed paths (by their normalized reading, which is
/// what Windows opens and what containment was decided on) and for the root.
pub(crate) fn checks(inside: &[&NamedPath], root: Option<&Untrusted>) -> Vec<Check> {
    let listed = inside.len().min(LISTED);
    let mut checks: Vec<Check> = inside
        .iter()
        .take(LISTED)
        .zip(PATH_PLACEHOLDERS)
        .map(|(path, numbered)| {
            let placeholder = if listed == 1 {
                PATH_PLACEHOLDER
            } else {
                numbered
            };
            Check::new(&path.normalized(), placeholder, "The path")
        })
        .collect();
    if let Some(root) = root {
        checks.push(Check::new(root, ROOT_PLACEHOLDER, "The workspace root"));
    }
    checks
}
