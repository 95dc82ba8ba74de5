//! family-native-init (placeholder).
