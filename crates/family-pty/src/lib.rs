//! family-pty (placeholder).
