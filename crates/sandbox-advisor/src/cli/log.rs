//! The host log on stderr, for the length of one run.

use std::io;
use std::sync::OnceLock;

use advisor_core::disclosure::WITHHELD_TARGET;
use tracing::level_filters::LevelFilter;
use tracing::subscriber::Interest;
use tracing::{Dispatch, Event, Metadata, Subscriber, dispatcher::WeakDispatch, span};
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
    let make = move || {
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
        tracing_subscriber::registry().with(layer)
    };
    let subscriber = Lazy {
        level: filter,
        make,
        built: OnceLock::new(),
        dispatch: OnceLock::new(),
    };
    tracing::subscriber::with_default(subscriber, f)
}

/// A subscriber that builds the real one (`make`) on the first event at or
/// above `level`. Most runs of `hook` log nothing, and the registry behind
/// the `fmt` layer costs a one-shot process about 50 k instructions and a
/// 32 KiB span table to set up.
struct Lazy<S, F> {
    level: LevelFilter,
    make: F,
    built: OnceLock<S>,
    /// The dispatch this subscriber was registered in, told to the real one.
    dispatch: OnceLock<WeakDispatch>,
}

impl<S: Subscriber, F: Fn() -> S> Lazy<S, F> {
    fn get(&self) -> &S {
        self.built.get_or_init(|| {
            let built = (self.make)();
            if let Some(dispatch) = self.dispatch.get().and_then(WeakDispatch::upgrade) {
                built.on_register_dispatch(&dispatch);
            }
            built
        })
    }

    fn passes(&self, meta: &Metadata<'_>) -> bool {
        *meta.level() <= self.level
    }
}

impl<S, F> Subscriber for Lazy<S, F>
where
    S: Subscriber,
    F: Fn() -> S + Send + Sync + 'static,
{
    fn on_register_dispatch(&self, dispatch: &Dispatch) {
        let _ = self.dispatch.set(dispatch.downgrade());
    }

    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        // Asked again at each event (`enabled`), so nothing is built here.
        if self.passes(meta) {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(self.level)
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        self.passes(meta) && self.get().enabled(meta)
    }

    fn event_enabled(&self, event: &Event<'_>) -> bool {
        self.get().event_enabled(event)
    }

    fn new_span(&self, span: &span::Attributes<'_>) -> span::Id {
        self.get().new_span(span)
    }

    fn record(&self, span: &span::Id, values: &span::Record<'_>) {
        self.get().record(span, values);
    }

    fn record_follows_from(&self, span: &span::Id, follows: &span::Id) {
        self.get().record_follows_from(span, follows);
    }

    fn event(&self, event: &Event<'_>) {
        self.get().event(event);
    }

    fn enter(&self, span: &span::Id) {
        self.get().enter(span);
    }

    fn exit(&self, span: &span::Id) {
        self.get().exit(span);
    }

    fn clone_span(&self, id: &span::Id) -> span::Id {
        self.get().clone_span(id)
    }

    fn try_close(&self, id: span::Id) -> bool {
        self.get().try_close(id)
    }

    fn current_span(&self) -> tracing_core::span::Current {
        self.built
            .get()
            .map_or_else(tracing_core::span::Current::none, S::current_span)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Collects what the `fmt` layer writes.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Nothing is built until an event passes the level; then it is built
    /// once, and the events from then on reach it.
    #[test]
    fn the_log_is_built_on_the_first_event_that_passes_its_level() {
        let (built, sink) = (Arc::new(AtomicUsize::new(0)), Sink::default());
        let (count, out) = (built.clone(), sink.clone());
        let lazy = Lazy {
            level: LevelFilter::WARN,
            make: move || {
                count.fetch_add(1, Relaxed);
                let out = out.clone();
                let layer = tracing_subscriber::fmt::layer().with_writer(move || out.clone());
                tracing_subscriber::registry().with(layer)
            },
            built: OnceLock::new(),
            dispatch: OnceLock::new(),
        };
        tracing::subscriber::with_default(lazy, || {
            tracing::info!("not logged");
            assert_eq!(built.load(Relaxed), 0);
            tracing::warn!("first");
            tracing::error!("second");
        });
        assert_eq!(built.load(Relaxed), 1);
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("first") && text.contains("second"), "{text}");
        assert!(!text.contains("not logged"), "{text}");
    }
}
