// Builds the Node-API addon with cargo (crates/node-binding) and places it at
// bindings/node/sandbox-advisor.node. Nothing is downloaded: cargo builds from
// the crates registry like any other workspace member.
//
//   node scripts/build.mjs              release build, always (cargo itself skips work that is up to date)
//   node scripts/build.mjs --if-needed  the same, but a missing cargo is not an error when an addon is already in place
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, renameSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const packageDir = resolve(here, '..')
const workspace = resolve(packageDir, '..', '..')
const target = join(packageDir, 'sandbox-advisor.node')
const ifNeeded = process.argv.includes('--if-needed')

const cargo = process.env.CARGO ?? 'cargo'
const run = spawnSync(
  cargo,
  ['build', '--release', '-p', 'node-binding', '--message-format=json-render-diagnostics'],
  { cwd: workspace, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
)
if (run.error !== undefined) {
  if (ifNeeded && existsSync(target)) {
    console.warn(`build: ${cargo} could not run (${run.error.message}); using the addon already at ${target}`)
    process.exit(0)
  }
  console.error(`build: ${cargo} could not run: ${run.error.message}`)
  process.exit(1)
}
if (run.status !== 0) {
  console.error(`build: cargo exited with ${run.status}`)
  process.exit(run.status ?? 1)
}

// cargo names the cdylib after the platform (lib….so, lib….dylib, ….dll); its
// compiler-artifact message says exactly where it put it.
let artifact
for (const line of run.stdout.split('\n')) {
  if (!line.startsWith('{')) continue
  const message = JSON.parse(line)
  if (message.reason !== 'compiler-artifact' || message.target?.name !== 'sandbox_advisor_node') continue
  artifact = message.filenames.find((f) => /\.(so|dylib|dll)$/.test(f)) ?? artifact
}
if (artifact === undefined) {
  console.error('build: cargo reported no cdylib for node-binding')
  process.exit(1)
}
// Copy beside, then rename over: a process that has the old addon loaded keeps its mapping.
const staging = `${target}.tmp-${process.pid}`
copyFileSync(artifact, staging)
renameSync(staging, target)
console.log(`build: ${artifact} -> ${target}`)
