//! Reading a configuration file: never more than [`CONFIG_MAX_BYTES`].

use std::io::Read as _;
use std::path::Path;

use super::ConfigFileError;

/// The largest configuration file read, in bytes (1 MiB): a longer one, or a
/// device such as `/dev/zero`, is refused after reading one byte more.
pub const CONFIG_MAX_BYTES: u64 = 1024 * 1024;

/// Reads at most [`CONFIG_MAX_BYTES`] of `path`, and refuses a longer file
/// (or a device that never ends, like `/dev/zero`) without reading the rest.
pub(super) fn read_capped(path: &Path) -> Result<String, ConfigFileError> {
    let failed = |source| ConfigFileError::Read {
        path: path.to_owned(),
        source,
    };
    let mut raw = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| {
            file.take(CONFIG_MAX_BYTES.saturating_add(1))
                .read_to_end(&mut raw)
        })
        .map_err(failed)?;
    if raw.len() as u64 > CONFIG_MAX_BYTES {
        return Err(ConfigFileError::TooLarge {
            path: path.to_owned(),
        });
    }
    String::from_utf8(raw).map_err(|_| {
        failed(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}
