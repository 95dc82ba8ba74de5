//! A call key is a fixed-size digest streamed from the canonical arguments: the
//! canonical string is never built. Measured with a counting allocator, so this
//! file holds one test (other tests' threads would count too).
#![allow(unsafe_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use advisor_core::CallKey;
use serde_json::json;

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed through.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed through.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The reproduction: 20k failing calls with 10 KB arguments took 281 MB,
/// because every full canonical key was built and kept. Building a key for a
/// 1 MiB argument now allocates a few hundred bytes (the sorted entry lists of
/// its objects), not a megabyte.
#[test]
fn a_key_for_large_arguments_allocates_almost_nothing() {
    let big = "x".repeat(1 << 20);
    let args = json!({"command": big, "env": {"b": [1, 2, {"z": null, "a": true}], "a": "y"}});
    let before = ALLOCATED.load(Ordering::Relaxed);
    let key = CallKey::new("bash", &args);
    let spent = ALLOCATED.load(Ordering::Relaxed) - before;
    assert!(spent < 4096, "{spent} bytes allocated for one key");
    assert_eq!(std::mem::size_of_val(&key), 16, "a fixed-size digest");
    let reordered = json!({"env": {"a": "y", "b": [1, 2, {"a": true, "z": null}]}, "command": "x".repeat(1 << 20)});
    assert_eq!(key, CallKey::new("bash", &reordered));
}
