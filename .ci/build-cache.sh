# Sourced by .ci/run: the build directories one run leaves for the next.
#
# A clean clone starts with no `target/`; every dependency, inject's slot
# trees and the fuzz build would be compiled again on each run. So a run
# moves the previous run's directories in before its first build and back out
# when it ends, pass or fail:
#   target/       <-> ${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/ci-build/target
#   fuzz/target/  <-> ${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/ci-build/fuzz-target
#
# Nothing is trusted beyond what cargo trusts in any working tree: the
# clone's files are all newer than the cached builds, so every workspace crate
# is compiled again; what stays are units cargo finds fresh (registry
# dependencies, and inject's slot trees, which it syncs by content and whose
# unchanged files keep their times). Results are never cached: every test
# runs, every mutation is applied, built and tested.
#
# Refused, so a cold build follows: a cache that is a symbolic link, not a
# directory, not owned by this user, or on another file system than the clone
# (moving would copy gigabytes). Not kept: a tree over CI_BUILD_CACHE_MAX_GB
# (default 30) when the run ends. CI_BUILD_CACHE=off turns all of it off.

BUILD_CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/ci-build
BUILD_CACHE_PAIRS=("target:target" "fuzz/target:fuzz-target")

# usable DIR: DIR is a directory of ours on the clone's file system.
build_cache_usable() {
  [ -d "$1" ] && [ ! -L "$1" ] && [ "$(stat -c %u "$1")" = "$(id -u)" ] \
    && [ "$(stat -c %d "$1")" = "$(stat -c %d .)" ]
}

build_cache_restore() {
  [ "${CI_BUILD_CACHE:-on}" = on ] || { echo "build cache: off (CI_BUILD_CACHE)"; return 0; }
  local pair here cached
  for pair in "${BUILD_CACHE_PAIRS[@]}"; do
    here=${pair%%:*} cached=$BUILD_CACHE_DIR/${pair#*:}
    if [ -e "$here" ]; then
      echo "build cache: $here exists already; not replaced"
    elif build_cache_usable "$cached"; then
      mv "$cached" "$here" && echo "build cache: $here from $cached"
    elif [ -e "$cached" ] || [ -L "$cached" ]; then
      echo "build cache: $cached refused (a link, not ours, or another file system); $here starts cold"
    else
      echo "build cache: none for $here; it starts cold"
    fi
  done
}

build_cache_save() {
  [ "${CI_BUILD_CACHE:-on}" = on ] || return 0
  local pair here cached kb max_kb=$(( ${CI_BUILD_CACHE_MAX_GB:-30} * 1024 * 1024 ))
  mkdir -p "$BUILD_CACHE_DIR" && chmod 700 "$BUILD_CACHE_DIR"
  build_cache_usable "$BUILD_CACHE_DIR" || { echo "build cache: $BUILD_CACHE_DIR unusable; nothing kept"; return 0; }
  for pair in "${BUILD_CACHE_PAIRS[@]}"; do
    here=${pair%%:*} cached=$BUILD_CACHE_DIR/${pair#*:}
    [ -d "$here" ] && [ ! -L "$here" ] || continue
    # This run's own state: its test list, and what a killed inject leaves
    # (a lock and journals naming this clone's paths; the slot trees are
    # brought back by content on the next run anyway).
    rm -rf "$here/ci" "$here/inject/run.lock" "$cached"
    rm -f "$here"/inject/in-flight*.json
    kb=$(du -sk "$here" | cut -f1)
    if [ "$kb" -gt "$max_kb" ]; then
      echo "build cache: $here is $((kb / 1024 / 1024)) GB, over ${CI_BUILD_CACHE_MAX_GB:-30}; not kept"
      continue
    fi
    mv "$here" "$cached" && echo "build cache: $here kept in $cached ($((kb / 1024)) MB)"
  done
}
