//! Link arguments for a Node-API addon (no downloads: napi-build only prints cargo directives).

fn main() {
    napi_build::setup();
}
