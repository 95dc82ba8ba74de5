//! A family's producer shape, for the tests that walk every registered family.

use crate::observation::Observation;

/// How a family's producer delivers its failure.
#[derive(Debug, Clone, Copy)]
pub enum SampleShape {
    /// A thrown failure: the producer's message built around an operand (a path).
    /// The family reads it under core's one envelope rule.
    Message(fn(&str) -> String),
    /// A settled value built around an operand; the family reads only the value.
    Value(fn(&str) -> Observation),
}

/// One family's positive producer shape, declared in the family crate
/// (`family!` key `sample:`) so whole-set tests need no table of their own.
#[derive(Debug, Clone, Copy)]
pub struct ProducerSample {
    /// The producer's shape.
    pub shape: SampleShape,
    /// The producer's line as a person would see it quoted in a log or a transcript;
    /// inside a longer message it must not be recognized.
    pub quoted: &'static [&'static str],
}
