// Identifiers through the addon (issue 23, item 11): read losslessly (a lone
// surrogate is not U+FFFD), bounded before they are copied, and kept at the
// CLI's size. One helper, `advised`, posts a PTY failure for an agent.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { native } from '../lib/native.js'

const linux = { platform: 'linux', electron: false, tmpdir: '/tmp' }
const policy = { mode: 'workspace-write', workspaceRoot: '/ws' }
const READ_MAX = 1024 * 1024

/** The families advised to `agent` for a PTY failure (posting with the policy when asked). */
function advised(a, agent, call = 'c1') {
  const event = [agent, call, 'pwsh', '{"command":"Get-Date"}', 'PTY shell exited during startup', undefined, undefined]
  let answer = a.post(...event)
  if (answer?.needPolicy) answer = a.post(...event, policy)
  return answer === null ? [] : answer.advisories.map((x) => x.family)
}

test('different JS strings are different agents, equal strings the same', () => {
  const cases = [
    ['\ud800', '\udfff'],
    ['\ud800', '\ufffd'],
    ['a\ud83d', 'a\ude00'],
    ['\uffffd800', '\ud800'],
    ['x'.repeat(300) + '\ud800', 'x'.repeat(300) + '\udfff'],
  ]
  for (const [first, second] of cases) {
    const a = new native.Advisor('{}', linux)
    const at = JSON.stringify([first.slice(-8), second.slice(-8)])
    assert.deepEqual(advised(a, first), ['pty-startup'], at)
    assert.deepEqual(advised(a, second), ['pty-startup'], `${at}: the second is another agent`)
    assert.deepEqual(advised(a, first, 'c2'), [], `${at}: the first again is the same agent`)
    assert.deepEqual(advised(a, String(second)), [], `${at}: an equal string is the same agent`)
    a.agentEnd(first)
    assert.deepEqual(advised(a, first, 'c3'), ['pty-startup'], `${at}: agentEnd forgot that agent`)
    assert.deepEqual(advised(a, second, 'c3'), [], `${at}: and not the other`)
  }
})

test('an id is bounded: refused past its bound before it is copied, kept short below it', () => {
  const a = new native.Advisor('{}', linux)
  const huge = 'x'.repeat(200 * 1024 * 1024)
  const before = process.memoryUsage().rss
  const started = performance.now()
  for (const call of [
    () => a.post(huge, 'c1', 'pwsh', '{}', 'PTY shell exited during startup'),
    () => a.pre(huge, 'c1', 'pwsh', '{}'),
    () => a.sessionStart(huge),
    () => a.agentEnd(huge),
    () => a.post('a1', huge, 'pwsh', '{}', 'PTY shell exited during startup'),
    () => a.tracks(huge),
  ]) {
    assert.throws(call, (e) => e instanceof RangeError && /argument `(agent|call|tool)` is a string of 209715200 UTF-16 code units, longer than the 1048576/.test(e.message))
  }
  const took = performance.now() - started
  const grown = process.memoryUsage().rss - before
  console.log(`a 200 MiB id refused 6 times: ${took.toFixed(1)} ms, RSS grew ${(grown / 1048576).toFixed(1)} MiB`)
  assert.ok(took < 1000, `${took} ms`)
  assert.ok(grown < 64 * 1048576, `${grown} bytes`)
  // At the bound: read, kept at the CLI's size, and still one agent per string.
  const longest = (last) => 'y'.repeat(READ_MAX - 1) + last
  const t0 = performance.now()
  assert.deepEqual(advised(a, longest('1')), ['pty-startup'])
  console.log(`an id of ${READ_MAX} UTF-16 code units posted: ${(performance.now() - t0).toFixed(1)} ms`)
  assert.deepEqual(advised(a, longest('2')), ['pty-startup'])
  assert.deepEqual(advised(a, longest('1'), 'c2'), [])
})
