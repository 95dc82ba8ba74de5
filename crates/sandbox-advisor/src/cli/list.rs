//! `families`: the compiled-in families, or those a hook dialect can reach.

use advisor_core::RegistryBuilder;

use super::args::{DialectArg, Format};
use super::commands::{text, usage};
use super::{Exit, Io};
use crate::families;
use crate::hook::Dialect;

/// Lists `registry`'s families (only `host`'s, when given), or with `dialect`
/// those that work through its hook payload.
pub(super) fn families(
    registry: RegistryBuilder,
    (format, dialect, host): (Format, Option<DialectArg>, Option<advisor_core::Host>),
    io: &mut Io<'_>,
) -> Exit {
    let registry = match registry.build() {
        Ok(r) => r,
        Err(e) => return usage(io, format!("registry: {e}")),
    };
    let json = match dialect.map(Dialect::from) {
        None => {
            let listed = families::list(&registry, host);
            match format {
                Format::Text => return text(io, &families::render(&listed, host)),
                Format::Json => serde_json::to_string_pretty(&listed),
            }
        }
        Some(dialect) => {
            let host = host.unwrap_or(dialect.default_host());
            let listed = families::through_hook(&registry, dialect, host);
            match format {
                Format::Text => return text(io, &families::render_hook(&listed)),
                Format::Json => serde_json::to_string_pretty(&listed),
            }
        }
    };
    match json {
        Ok(json) => text(io, &format!("{json}\n")),
        Err(e) => usage(io, e.to_string()),
    }
}
