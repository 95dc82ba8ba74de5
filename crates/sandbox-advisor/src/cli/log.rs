//! The host log on stderr, for the length of one run.

use std::io;

use advisor_core::disclosure::WITHHELD_TARGET;
use tracing::level_filters::LevelFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;

use super::args::LogLevel;

/// Runs `f` with the host log at `level` on the process's stderr. The subscriber
/// is this thread's default only while `f` runs, so a program that calls the CLI
/// as a library keeps its own global subscriber.
pub(super) fn with_log<T>(level: LogLevel, f: impl FnOnce() -> T) -> T {
    let filter = match level {
        LogLevel::Off => return f(),
        LogLevel::Error => LevelFilter::ERROR,
        LogLevel::Warn => LevelFilter::WARN,
        LogLevel::Info => LevelFilter::INFO,
        LogLevel::Debug => LevelFilter::DEBUG,
        LogLevel::Trace => LevelFilter::TRACE,
    };
    // The CLI tells withheld advisories itself, in words and once per session
    // (`sandbox_advisor::withheld`); the core's own per-agent lines on that target are dropped.
    let ours = tracing_subscriber::filter::filter_fn(|meta| {
        meta.target() != WITHHELD_TARGET
            || meta
                .module_path()
                .is_some_and(|m| m.starts_with("sandbox_advisor"))
    });
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(io::stderr)
        .with_filter(filter)
        .with_filter(ours);
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, f)
}
