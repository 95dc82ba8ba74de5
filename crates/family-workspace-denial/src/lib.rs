//! family-workspace-denial (placeholder).
