// The addon's own contract (crates/node-binding), through Node: the two steps,
// the policy hand-off, and what it refuses.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { native } from '../lib/native.js'

const linux = { platform: 'linux', electron: false, tmpdir: '/tmp' }
const bytes = (text) => new TextEncoder().encode(text)
const acl = 'SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)'

test('configuration errors name the key', () => {
  assert.throws(() => new native.Advisor('{"enforceAfterr": 1}', linux), /config key `enforceAfterr`/)
  assert.throws(() => native.validateConfig('{"include": ["bash", ""]}'), /config key `include\[1\]`/)
  assert.throws(() => native.validateConfig('{'), /config key `\.`/)
  assert.doesNotThrow(() => native.validateConfig('{"enforceAfter": 3, "maxDenials": 2, "href": "https://example.org/x"}'))
})

test('the desktop version is a configured fact, and a bad one names its key (issue 24)', () => {
  assert.doesNotThrow(() => native.validateConfig('{"hostVersion": "2.0.11"}'))
  for (const bad of ['"2.0"', '"v2.0.11"', '""', '2']) {
    assert.throws(() => native.validateConfig(`{"hostVersion": ${bad}}`), /config key `hostVersion`/, bad)
  }
})

test('step 1 answers from the families\' anchors alone', () => {
  const a = new native.Advisor('{}', linux)
  const failure = (message, content = '') => {
    const m = bytes(message)
    const all = new Uint8Array([...m, ...bytes(content)])
    return a.scanFailure(all, m.length, all.length)
  }
  assert.equal(failure(acl), true)
  assert.equal(failure('PTY shell exited during startup'), true)
  assert.equal(failure('x'.repeat(4096)), false)
  assert.equal(failure('boom', `Error: boom\n${acl}`), true, 'rendered content that says more is scanned too')
  assert.equal(a.scanRun(0, false, new Uint8Array(0), 0), false)
  assert.equal(a.scanRun(-1073741502, false, new Uint8Array(0), 0), true, 'a failed exit is an anchor')
  assert.equal(a.scanRun(Number.NaN, true, new Uint8Array(0), 0), false, 'a non-integer exit code is not a finished run')
  const stderr = bytes('Get-CimInstance : 0x80041003')
  assert.equal(a.scanRun(0, false, stderr, stderr.length), true)
  assert.equal(a.quietRunCrosses, false)
  assert.equal(a.scanOther(), false)
  assert.throws(() => a.scanFailure(new Uint8Array(4), 2, 8), /exceeds the buffer/)
  assert.throws(() => a.scanFailure(new Uint8Array(4), 6, 4), /exceeds len/)
})

test('step 2 asks for the policy before recording anything, then decides with it', () => {
  const a = new native.Advisor('{}', linux)
  const event = ['a1', 'c1', 'pwsh', '{"command":"Get-Date"}', 'PTY shell exited during startup', undefined, undefined]
  const asked = a.post(...event)
  assert.equal(asked.needPolicy, true)
  assert.deepEqual([asked.advisories, asked.withheld], [[], []])
  const answered = a.post(...event, { mode: 'workspace-write', workspaceRoot: '/ws' })
  assert.equal(answered.needPolicy, false)
  assert.deepEqual(answered.advisories.map((x) => x.family), ['pty-startup'])
  // The same agent again: nothing to say (null), though the policy was asked for (nothing recorded by asking).
  assert.equal(a.post(...event).needPolicy, true)
  assert.equal(a.post(...event, { mode: 'workspace-write', workspaceRoot: '/ws' }), null)
  // Nothing recognized: nothing to do, and no policy asked for.
  assert.equal(a.post('a1', 'c2', 'pwsh', '{}', 'x'.repeat(4096)), null)
  assert.equal(a.post('a1', 'c3', 'pwsh', '{}', undefined, 'ok', '{"kind":"foreground","exitCode":0}'), null)
  assert.throws(() => a.post('a1', 'c4', 'pwsh', '{}', undefined, 'ok', '{not json'), /value: not JSON/)
})

test('an unavailable or nonsensical policy is withheld with its reason', () => {
  const a = new native.Advisor('{}', linux)
  const event = (agent) => [agent, 'c1', 'pwsh', undefined, 'PTY shell exited during startup', undefined, undefined]
  const reasons = [
    [{ unavailable: 'no-policy-service' }, 'no-policy-service'],
    [{ unavailable: 'no-session' }, 'no-session'],
    [{ unavailable: 'resolver-error', message: 'boom\nforged' }, 'resolver-error'],
    [{ mode: 'full-access' }, 'resolver-error'],
    [{ mode: 'danger-full-access', workspaceRoot: '/ws' }, 'unconfined-mode'],
  ]
  reasons.forEach(([policy, reason], i) => {
    const answer = a.post(...event(`a${i}`), policy)
    assert.deepEqual(answer.advisories, [])
    assert.deepEqual(answer.withheld.map((w) => [w.family, w.seat, w.reason]), [['pty-startup', 'failure', reason]])
    assert.doesNotMatch(answer.withheld[0].detail, /\n/)
  })
})

test('the fail-fast budget: fed by provisioning failures, refusing identical calls', () => {
  const a = new native.Advisor('{"enforceAfter": 1, "maxDenials": 1}', linux)
  const args = '{"command":"Get-Date"}'
  assert.equal(a.pre('a1', 'c0', 'pwsh', args), null)
  const answer = a.post('a1', 'c1', 'pwsh', args, acl)
  assert.equal(answer.feedsBudget, true)
  assert.deepEqual(answer.advisories.map((x) => x.family), ['acl-provisioning'])
  const refusal = a.pre('a1', 'c2', 'pwsh', args)
  assert.equal(refusal.family, 'acl-provisioning')
  assert.match(refusal.reason, /^sandbox-advisor refused this call before it ran/)
  assert.equal(a.pre('a1', 'c3', 'pwsh', '{"command":"other"}'), null, 'a different call')
  assert.equal(a.pre('a2', 'c4', 'pwsh', args), null, 'another agent')
  assert.throws(() => a.pre('a1', 'c5', 'pwsh', '{not json'), /arguments: not JSON/)
  a.agentEnd('a1')
  assert.equal(a.pre('a1', 'c6', 'pwsh', args), null, 'a forgotten agent has no budget')
})

test('the host facts decide the pre-flight', () => {
  assert.equal(new native.Advisor('{}', linux).wantsPreflight, false)
  const windows = new native.Advisor('{}', { platform: 'win32', electron: false, tmpdir: 'C:\\ws\\tmp' })
  assert.equal(windows.wantsPreflight, true)
  assert.equal(windows.sessionStart('a1').needPolicy, true)
  const answer = windows.sessionStart('a1', { mode: 'workspace-write', workspaceRoot: 'C:\\ws' })
  assert.deepEqual(answer.advisories.map((x) => x.family), ['temp-root-inside-workspace'])
  assert.equal(windows.sessionStart('a1'), null, 'computed once per session, delivered once per agent')
  const ids = native.families()
  assert.ok(ids.includes('temp-root-inside-workspace'), 'the shipped families are listed')
})

test('an advisory crosses as ASCII and non-ASCII runs that join to the text', () => {
  const a = new native.Advisor('{}', linux)
  const [advisory] = a.post('a1', 'c1', 'pwsh', '{}', acl).advisories
  // The brief is plain ASCII; the full account has typographic punctuation.
  assert.ok(advisory.textParts.join('').includes(acl), 'the brief quotes the failure')
  const parts = advisory.detailParts
  assert.ok(parts.length > 1, 'the detail has typographic punctuation')
  for (const part of [...advisory.textParts, ...parts]) {
    assert.ok(part.length > 0)
    const ascii = /^[\x00-\x7f]*$/.test(part)
    assert.ok(ascii || /^[^\x00-\x7f]+$/.test(part), `a part is one kind of run: ${JSON.stringify(part.slice(0, 20))}`)
  }
  parts.slice(1).forEach((part, i) => {
    assert.notEqual(/^[\x00-\x7f]/.test(part), /^[\x00-\x7f]/.test(parts[i]), 'runs alternate')
  })
  const detail = parts.join('')
  assert.ok(detail.includes(acl))
  assert.ok(detail.length > advisory.textParts.join('').length, 'the detail is the longer account')
  assert.equal(JSON.parse(advisory.diagnosis).category, 'runner_setup_failed')
})
