//! family-acl (placeholder).
