//! family-temp-root (placeholder).
