// The per-event cost of sandbox-grant-advisor on the real `tools/post-execute`
// waterfall, against a do-nothing listener, A/B interleaved in one run.
//
// Three contexts, each with the real SystemPrompt, ToolRuntime and sandbox
// policy service from the registry and one pwsh tool: "bare" (no listener),
// "noop" (one listener that only delegates: `(exec, result, next) => next()`)
// and "plugin" (this package, default configuration). For each case the real
// `exec` and `result` objects are captured from one `ctx.tools.execute` call,
// then the waterfall is dispatched exactly as the ToolRuntime dispatches it
// (`ctx.waterfall(scopeTarget(tools, agent), 'tools/post-execute', exec,
// result, next)`), BATCH events per sample, the three contexts taking turns in
// a rotating order so drift and GC land on all of them alike; short samples and
// many rounds, so a burst of load on a shared machine spoils few pairs. Reported:
// the median per-event time of each, and the plugin's cost above the do-nothing
// listener as the median of the per-round paired differences, with their
// interquartile range and 10th–90th percentile spread.
import os from 'node:os'
import { mkdtempSync, realpathSync } from 'node:fs'
import { join } from 'node:path'

import { Context } from '@deepseek-ai/cordis'
import { scopeTarget } from '@deepseek-ai/dsh-scope'
import SandboxPolicyService, { setSandboxMode } from '@deepseek-ai/dsh-sandbox-policy'
import { Session } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'

import * as plugin from '../lib/index.js'

const BATCH = Number(process.env.BENCH_BATCH ?? 100)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 600)
const WARMUP_ROUNDS = 50

const workspace = realpathSync(mkdtempSync(join(os.tmpdir(), 'sga-bench-')))
const line4k = 'x'.repeat(4096)
const cases = [
  {
    name: 'non-matching success (pwsh foreground value, exit 0, 4 KiB stdout)',
    body: () => ({
      kind: 'foreground', exitCode: 0, signal: null, timedOut: false, aborted: false, timeoutMs: 120000,
      stdout: { text: line4k, truncated: false }, stderr: { text: '', truncated: false },
    }),
  },
  {
    name: '4 KiB unrelated failure',
    body: () => { throw new Error(`Get-Item: ${line4k.slice(10)}`) },
  },
  {
    name: 'ACL failure, agent already advised (the retry loop)',
    body: () => { throw new Error('SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)') },
  },
  {
    name: 'ACL failure, first for its agent (advisory rendered and folded)',
    body: () => { throw new Error('SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)') },
    freshAgents: true,
  },
  {
    name: 'non-shell success (read_file string)',
    body: () => 'file contents\n'.repeat(64),
  },
]

let sessions = 0
function agent() {
  sessions += 1
  const id = `bench-${sessions}`
  const session = Session.create(id, undefined, { version: 0, id, createdAt: Date.now(), cwd: workspace })
  setSandboxMode(session, 'workspace-write')
  return { id: session.id, session, inject() {} }
}

async function context(kind) {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(SandboxPolicyService, { mode: 'read-only', workspaceRoot: workspace })
  let body
  ctx.tools.register({
    name: 'pwsh',
    description: 'bench',
    parameters: { type: 'object', properties: { command: { type: 'string' } } },
    output: { schema: {}, render: (_a, v) => [{ type: 'text', text: typeof v === 'string' ? v : JSON.stringify(v) }] },
    execute: async () => body(),
  })
  if (kind === 'noop') ctx.on('tools/post-execute', (exec, result, next) => next())
  if (kind === 'plugin') await ctx.plugin(plugin, {})
  return {
    kind,
    ctx,
    /** The real exec and result for one case, captured from one execution. */
    async capture(c) {
      body = c.body
      let captured
      const dispose = ctx.on('tools/post-execute', (exec, result, next) => {
        captured = { exec, result }
        return next()
      }, { prepend: true })
      await ctx.tools.execute({ callId: 'capture', name: 'pwsh', arguments: { command: 'Get-Date' }, agent: agent(), signal: new AbortController().signal })
      dispose()
      return captured
    },
  }
}

const accept = () => Promise.resolve({ kind: 'accept' })

/** One sample: wall-clock and CPU nanoseconds per event over one batch. */
async function sample(target, events) {
  const { ctx } = target
  const tools = ctx.tools
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  for (const { exec, result } of events) {
    await ctx.waterfall(scopeTarget(tools, exec.agent), 'tools/post-execute', exec, result, accept)
  }
  const wall = Number(process.hrtime.bigint() - start) / events.length
  const used = process.cpuUsage(cpu)
  return { wall, cpu: ((used.user + used.system) * 1000) / events.length }
}

function quantile(sorted, q) {
  const i = (sorted.length - 1) * q
  const lo = Math.floor(i)
  const hi = Math.ceil(i)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo)
}

function stats(values) {
  const s = [...values].sort((a, b) => a - b)
  return { median: quantile(s, 0.5), p10: quantile(s, 0.1), p25: quantile(s, 0.25), p75: quantile(s, 0.75), p90: quantile(s, 0.9) }
}

const us = (ns) => (ns / 1000).toFixed(2)

const targets = [await context('bare'), await context('noop'), await context('plugin')]
const results = []
for (const c of cases) {
  const events = new Map()
  for (const t of targets) {
    const { exec, result } = await t.capture(c)
    // One agent for the whole run, or a fresh one per event (prepared outside the timed loop).
    const shared = agent()
    const list = []
    for (let i = 0; i < BATCH; i++) list.push({ exec: { ...exec, agent: c.freshAgents ? agent() : shared }, result })
    events.set(t.kind, list)
  }
  const times = { wall: new Map(targets.map((t) => [t.kind, []])), cpu: new Map(targets.map((t) => [t.kind, []])) }
  const deltas = { wall: [], cpu: [] }
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    if (c.freshAgents) {
      // Fresh agents again for every round, so each event is a first delivery.
      for (const t of targets) for (const e of events.get(t.kind)) e.exec = { ...e.exec, agent: agent() }
    }
    if (round % 50 === 0) globalThis.gc?.()
    const order = [...targets.slice(round % 3), ...targets.slice(0, round % 3)]
    const perRound = new Map()
    for (const t of order) perRound.set(t.kind, await sample(t, events.get(t.kind)))
    if (round < WARMUP_ROUNDS) continue
    for (const clock of ['wall', 'cpu']) {
      for (const [kind, ns] of perRound) times[clock].get(kind).push(ns[clock])
      deltas[clock].push(perRound.get('plugin')[clock] - perRound.get('noop')[clock])
    }
  }
  const summary = (clock) => ({
    bare: stats(times[clock].get('bare')),
    noop: stats(times[clock].get('noop')),
    plugin: stats(times[clock].get('plugin')),
    delta: stats(deltas[clock]),
  })
  results.push({ name: c.name, wall: summary('wall'), cpu: summary('cpu') })
}

console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os.loadavg()[0].toFixed(2)} at the end`)
console.log(`${ROUNDS} rounds × ${BATCH} events per context (after ${WARMUP_ROUNDS} warm-up rounds), rotating order; µs per event, median [p25–p75]; the difference also with [p10–p90]`)
for (const [clock, title] of [['wall', 'wall clock (process.hrtime)'], ['cpu', 'CPU time (process.cpuUsage: unaffected by time spent preempted)']]) {
  console.log('')
  console.log(`${title}:`)
  console.log('')
  console.log('| event | no listener | do-nothing listener | plugin | plugin − do-nothing, paired per round |')
  console.log('|---|---|---|---|---|')
  for (const r of results) {
    const x = r[clock]
    const cell = (s) => `${us(s.median)} [${us(s.p25)}–${us(s.p75)}]`
    const d = x.delta
    console.log(`| ${r.name} | ${cell(x.bare)} | ${cell(x.noop)} | ${cell(x.plugin)} | **${us(d.median)}** [${us(d.p25)}–${us(d.p75)}; ${us(d.p10)}–${us(d.p90)}] |`)
  }
}
