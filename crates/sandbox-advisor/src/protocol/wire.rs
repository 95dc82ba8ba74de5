//! The raw shapes of the input lines, read with `serde_path_to_error` so an
//! error names the field. Unknown fields are ignored.

use advisor_core::{Platform, SandboxMode};
use serde::Deserialize;
use serde_json::Value;

use super::{Call, id};

#[derive(Deserialize)]
pub(super) struct HelloLine {
    pub(super) protocol: u32,
}

#[derive(Deserialize)]
pub(super) struct HostLine {
    pub(super) platform: Platform,
    #[serde(default)]
    pub(super) electron: bool,
    #[serde(default)]
    pub(super) tmpdir: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct SessionLine {
    pub(super) session: String,
    #[serde(default)]
    pub(super) cwd: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ModeLine {
    pub(super) session: String,
    pub(super) mode: SandboxMode,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum UnavailableReason {
    NoService,
    ResolverError,
}

#[derive(Deserialize)]
pub(super) struct UnavailableLine {
    pub(super) reason: UnavailableReason,
    #[serde(default)]
    pub(super) session: Option<String>,
    #[serde(default)]
    pub(super) message: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct StartLine {
    pub(super) agent: String,
    #[serde(default)]
    pub(super) session: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct EndLine {
    pub(super) agent: String,
}

#[derive(Deserialize)]
pub(super) struct CallFields {
    pub(super) agent: String,
    #[serde(default)]
    pub(super) session: Option<String>,
    pub(super) call: String,
    pub(super) tool: String,
    #[serde(default)]
    pub(super) args: Option<Value>,
}

impl CallFields {
    pub(super) fn into_call(self) -> Result<Call, String> {
        Ok(Call {
            agent: id("agent", &self.agent)?,
            session: self
                .session
                .as_deref()
                .map(|s| id("session", s))
                .transpose()?,
            call: id("call", &self.call)?,
            tool: id("tool", &self.tool)?,
            args: self
                .args
                .unwrap_or_else(|| Value::Object(Default::default())),
        })
    }
}

#[derive(Deserialize)]
/// The outcome half of a `post` line; its call half is read as [`CallFields`]
/// from the same object (not flattened, so an error keeps its field's name).
pub(super) struct PostLine {
    #[serde(default)]
    pub(super) mode: Option<SandboxMode>,
    #[serde(default)]
    pub(super) error: Option<ErrorPart>,
    #[serde(default)]
    pub(super) result: Option<ResultPart>,
}

#[derive(Deserialize)]
pub(super) struct ErrorPart {
    pub(super) message: String,
    #[serde(default)]
    pub(super) members: Vec<String>,
    #[serde(default)]
    pub(super) content: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ResultPart {
    pub(super) value: Value,
    #[serde(default)]
    pub(super) content: String,
}
