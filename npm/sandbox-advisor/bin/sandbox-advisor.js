#!/usr/bin/env node
// Runs the prebuilt sandbox-advisor binary of this machine's platform.
//
// The binary comes in one package per platform (@sandbox-advisor/<platform>),
// each an optional dependency of this one that npm installs only where its
// `os`, `cpu` (and `libc`) match. This script finds the one installed and runs
// it with the same arguments, stdin, stdout and stderr, and exits as it did.
// It writes nothing of its own except when no binary can be run (exit 1, one
// line on stderr: `hook` must never exit 2, which a client reads as "block").
'use strict';

const { spawnSync } = require('node:child_process');

// `${process.platform} ${process.arch}` -> the package holding the binary.
const PLATFORMS = {
  'darwin arm64': '@sandbox-advisor/darwin-arm64',
  'darwin x64': '@sandbox-advisor/darwin-x64',
  'linux arm64': '@sandbox-advisor/linux-arm64',
  'linux x64': '@sandbox-advisor/linux-x64',
  'win32 x64': '@sandbox-advisor/win32-x64',
};

function fail(message) {
  process.stderr.write(`sandbox-advisor: ${message}\n`);
  process.exit(1);
}

function binary() {
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    fail(`no prebuilt binary for ${key}; build it with cargo (see the README's install section)`);
  }
  const exe = process.platform === 'win32' ? 'sandbox-advisor.exe' : 'sandbox-advisor';
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    return fail(
      `${pkg} is not installed: it is an optional dependency, which npm skips under ` +
        '--omit=optional or --no-optional; reinstall sandbox-advisor without that flag',
    );
  }
}

const run = spawnSync(binary(), process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (run.error) {
  fail(`cannot run the binary: ${run.error.message}`);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
