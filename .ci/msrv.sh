#!/usr/bin/env bash
# The minimum Rust the workspace states (`rust-version` in Cargo.toml's
# [workspace.package], which every crate takes) is true: `cargo check` of every
# crate's library and binaries with that toolchain.
#
#   .ci/msrv.sh check
#
# The toolchain is Debian's rustc-web/cargo-web of that version (bookworm
# carries 1.85.0+dfsg3-1~deb12u3), fetched with `apt-get download` and unpacked
# with `dpkg-deb -x` into a directory of its own, so it sits beside the
# system's rustc-web (1.96 from bookworm-security) and rustup's toolchains
# without replacing either:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/rust-<version>/
# (kept; about 510 MB). Its target directory is target/msrv-<version>.
#
# What it does not check: the test suite. sandbox-advisor's benchmarks use the
# dev-dependency gungraun 0.20.0, pinned to the instruction-count runner, which
# needs Rust 1.88, so `cargo test` needs 1.88; every other crate's tests and
# benches build with 1.85 (checked by hand, `--all-targets --exclude
# sandbox-advisor`).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$VERSION" ] || { echo "msrv: no rust-version in Cargo.toml's [workspace.package]" >&2; exit 1; }
DEB_VERSION=${MSRV_DEB_VERSION:-1.85.0+dfsg3-1~deb12u3}
case "$DEB_VERSION" in "$VERSION".*) ;; *)
  echo "msrv: the workspace says $VERSION but the Debian packages are $DEB_VERSION (set MSRV_DEB_VERSION)" >&2
  exit 1 ;;
esac
DIR=${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/rust-$VERSION
ROOTFS=$DIR/root
LIBS=$ROOTFS/usr/lib/x86_64-linux-gnu:$ROOTFS/lib/x86_64-linux-gnu

install_toolchain() {
  [ ! -f "$DIR/.complete" ] && rm -rf "$DIR"
  [ -f "$DIR/.complete" ] && return 0
  echo "msrv: fetching Debian's Rust $DEB_VERSION into $DIR"
  local debs=$DIR/debs
  mkdir -p "$debs"
  local want=(rustc-web="$DEB_VERSION" cargo-web="$DEB_VERSION" libstd-rust-web-dev="$DEB_VERSION"
    "libstd-rust-web-$VERSION=$DEB_VERSION" libllvm19)
  # cargo-web's shared libraries that a machine without any cargo-web may lack.
  local lib
  for lib in libpcre3 libhttp-parser2.9 libssh2-1 libcurl4 libsqlite3-0; do
    dpkg -s "$lib" > /dev/null 2>&1 || want+=("$lib")
  done
  if ! (cd "$debs" && apt-get download "${want[@]}" > /dev/null 2>&1); then
    apt-get update -qq
    (cd "$debs" && apt-get download "${want[@]}" > /dev/null)
  fi
  mkdir -p "$ROOTFS"
  local deb
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$ROOTFS"; done
  rm -rf "$debs"
  local missing
  missing=$(LD_LIBRARY_PATH=$LIBS ldd "$ROOTFS/usr/bin/cargo" "$ROOTFS/usr/bin/rustc" | grep 'not found' || true)
  [ -z "$missing" ] || { echo "msrv: unresolved libraries: $missing" >&2; exit 1; }
  touch "$DIR/.complete"
}

check() {
  install_toolchain
  local rustc=$ROOTFS/usr/bin/rustc cargo=$ROOTFS/usr/bin/cargo
  LD_LIBRARY_PATH=$LIBS "$rustc" --version | grep -qF "rustc $VERSION." ||
    { echo "msrv: $rustc is not $VERSION" >&2; exit 1; }
  LD_LIBRARY_PATH=$LIBS RUSTC=$rustc RUSTDOC=$ROOTFS/usr/bin/rustdoc \
    CARGO_TARGET_DIR=$PWD/target/msrv-$VERSION CARGO_PROFILE_DEV_DEBUG=0 \
    "$cargo" check --workspace --locked --offline
  echo "msrv: every crate's library and binaries check with $(LD_LIBRARY_PATH=$LIBS "$rustc" --version)"
}

case "${1:-}" in
  check) check ;;
  *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
