//! family-cim (placeholder).
