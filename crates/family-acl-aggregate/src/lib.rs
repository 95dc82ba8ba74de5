//! family-acl-aggregate (placeholder).
