//! The terminal table.

use super::Report;

/// The report as a plain-text table.
pub fn render(_report: &Report) -> String {
    todo!("helper: table")
}
