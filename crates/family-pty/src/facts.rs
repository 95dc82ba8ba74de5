//! What the brief and the detail both read.

/// The longest tool mention the summary carries, its code span included: a
/// longer one would push "retrying will not help" out of the bounded summary,
/// so the summary then says "Persistent shell" without the name.
pub const SUMMARY_TOOL_MAX_CHARS: usize = 34;
