//! The fail-fast budget: refuse an identical call that already failed provisioning.
//!
//! Only the family registered with
//! [`RegistryBuilder::fail_fast_family`](crate::registry::RegistryBuilder::fail_fast_family)
//! (which requires [`FailFast`](crate::family::FailFast)) feeds it.
//!
//! Per agent: a count of provisioning failures, the set of watched call keys,
//! and the refusals spent in the current episode. A call is refused before
//! dispatch when `enforceAfter > 0`, the count has reached `enforceAfter`, the
//! call's key is watched, and fewer than `maxDenials` refusals were spent. A
//! watched call that later succeeds stops being watched and re-arms the budget
//! (the episode's refusals go back to zero).

use std::fmt::Write as _;

use serde_json::Value;

/// A call's identity: tool name plus canonical arguments (object keys sorted,
/// so two spellings of the same arguments are the same call).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallKey(String);

impl CallKey {
    /// Builds the key for `tool` called with `arguments`.
    pub fn new(tool: &str, arguments: &Value) -> Self {
        let mut out = String::with_capacity(tool.len() + 64);
        out.push_str(tool);
        out.push('\u{0}');
        write_canonical(&mut out, arguments);
        Self(out)
    }

    /// The canonical spelling.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}:", Value::String(key.clone()));
                write_canonical(out, value);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

/// One agent's budget.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct BudgetState {
    failures: u32,
    watched: Vec<CallKey>,
    denials: u32,
}

/// What the budget says about a call about to be dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetVerdict {
    /// Let it through.
    Allow,
    /// Refuse it; this many refusals remain in the episode afterwards.
    Refuse { left: u32 },
}

impl BudgetState {
    /// Records a provisioning failure of `key`.
    pub(crate) fn record_failure(&mut self, key: CallKey) {
        self.failures = self.failures.saturating_add(1);
        if !self.watched.contains(&key) {
            self.watched.push(key);
        }
    }

    /// Records a success of `key`: a watched call stops being watched and re-arms the budget.
    pub(crate) fn record_success(&mut self, key: &CallKey) {
        if let Some(i) = self.watched.iter().position(|k| k == key) {
            self.watched.swap_remove(i);
            self.denials = 0;
        }
    }

    /// Decides whether `key` is refused, spending a refusal if so.
    pub(crate) fn check(
        &mut self,
        key: &CallKey,
        enforce_after: u32,
        max_denials: u32,
    ) -> BudgetVerdict {
        if enforce_after == 0 || self.failures < enforce_after || !self.watched.contains(key) {
            return BudgetVerdict::Allow;
        }
        if self.denials >= max_denials {
            return BudgetVerdict::Allow;
        }
        self.denials += 1;
        BudgetVerdict::Refuse {
            left: max_denials - self.denials,
        }
    }

    /// True when nothing is watched (the success path can skip key building).
    pub(crate) fn is_idle(&self) -> bool {
        self.watched.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_ignores_object_key_order() {
        let a = CallKey::new(
            "bash",
            &json!({"command": "ls", "cwd": {"x": 1, "y": [2, {"b": 1, "a": 2}]}}),
        );
        let b = CallKey::new(
            "bash",
            &json!({"cwd": {"y": [2, {"a": 2, "b": 1}], "x": 1}, "command": "ls"}),
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            CallKey::new(
                "pwsh",
                &json!({"command": "ls", "cwd": {"x": 1, "y": [2, {"b": 1, "a": 2}]}})
            )
        );
        assert_ne!(
            a,
            CallKey::new(
                "bash",
                &json!({"command": "ls -a", "cwd": {"x": 1, "y": [2, {"a": 2, "b": 1}]}})
            )
        );
    }

    #[test]
    fn key_keeps_array_order() {
        assert_ne!(
            CallKey::new("t", &json!([1, 2])),
            CallKey::new("t", &json!([2, 1]))
        );
    }
}
