//! A transcript's steps: the assistant records of one response (one
//! `message.id`) are one step.

use std::collections::{HashMap, VecDeque};

use crate::model::StepId;

/// The message ids remembered for grouping assistant records into steps. A
/// record whose `message.id` was seen among the last this many distinct ids
/// belongs to that step; an older one starts a new step (and its usage is
/// counted again). The records of one response are written together, so this
/// bound only matters for a file that interleaves thousands of responses.
pub const STEP_IDS_KEPT: usize = 4_096;

/// Distinct `message.id`s to step numbers, the last [`STEP_IDS_KEPT`] kept.
#[derive(Default)]
pub(super) struct Steps {
    ids: HashMap<String, StepId>,
    order: VecDeque<String>,
    last: u64,
}

impl Steps {
    /// The step of `id`, and whether it is new.
    pub(super) fn of(&mut self, id: Option<&str>) -> (StepId, bool) {
        if let Some(step) = id.and_then(|id| self.ids.get(id)) {
            return (*step, false);
        }
        self.last += 1;
        let step = StepId(self.last);
        if let Some(id) = id {
            if self.order.len() >= STEP_IDS_KEPT {
                if let Some(old) = self.order.pop_front() {
                    self.ids.remove(&old);
                }
            }
            self.order.push_back(id.to_owned());
            self.ids.insert(id.to_owned(), step);
        }
        (step, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_the_last_ids_only() {
        let mut steps = Steps::default();
        assert_eq!(steps.of(Some("a")), (StepId(1), true));
        assert_eq!(steps.of(Some("a")), (StepId(1), false));
        assert_eq!(steps.of(None), (StepId(2), true));
        assert_eq!(steps.of(None), (StepId(3), true));
        for i in 0..STEP_IDS_KEPT - 1 {
            steps.of(Some(&i.to_string()));
        }
        assert_eq!(steps.of(Some("a")), (StepId(1), false));
        steps.of(Some("one more"));
        assert_eq!(steps.ids.len(), STEP_IDS_KEPT);
        // `a` was the oldest: forgotten, so a new step.
        assert_eq!(
            steps.of(Some("a")),
            (StepId(4 + STEP_IDS_KEPT as u64), true)
        );
    }
}
