// Mode and root come from the harness's own `sandboxPolicy` service; without
// one the advisor withholds and says so once on the harness logger.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { advisories, harness, shapes } from '../support/harness.mjs'

const ptyFails = () => { throw new Error(shapes.pty) }

test('without a sandboxPolicy service the advisory is withheld and disclosed once', async () => {
  const h = await harness({ policy: false })
  const agent = h.agent('a1')
  h.behave('pwsh', ptyFails)
  for (let i = 0; i < 3; i++) assert.deepEqual(advisories(await h.call(agent, 'pwsh')), [])
  const withheld = h.pluginLogs().filter((l) => l.text.startsWith('advisory withheld'))
  assert.equal(withheld.length, 1, 'disclosed once per agent, family and reason')
  assert.equal(withheld[0].type, 'warn')
  assert.match(withheld[0].text, /family pty-startup, seat failure, agent "a1", reason no-policy-service/)
  // A family that needs no policy still speaks.
  h.behave('pwsh', () => { throw new Error(shapes.acl('D:\\ws')) })
  assert.equal(advisories(await h.call(agent, 'pwsh')).length, 1)
})

test('the session mode comes from the real sandbox-policy service', async () => {
  const h = await harness({ policy: { mode: 'danger-full-access' } })
  h.behave('pwsh', ptyFails)
  // The session's own sandbox/mode event outranks the deployment default.
  const confined = h.agent('confined', { mode: 'read-only' })
  assert.equal(advisories(await h.call(confined, 'pwsh')).length, 1)
  // No event: the deployment default applies, and it does not confine.
  const unconfined = h.agent('default', { mode: null })
  assert.deepEqual(advisories(await h.call(unconfined, 'pwsh')), [])
  const [line] = h.pluginLogs().filter((l) => l.text.startsWith('advisory withheld'))
  assert.match(line.text, /agent "default", reason unconfined-mode \(the call ran under danger-full-access/)
})

test('a resolver that throws is disclosed, not passed off as a mode', async () => {
  const h = await harness({ policy: false })
  await h.ctx.plugin((ctx) => {
    ctx.provide('sandboxPolicy', { resolve: () => { throw new Error('session store unavailable\nforged line') } })
  })
  h.behave('pwsh', ptyFails)
  assert.deepEqual(advisories(await h.call(h.agent('a1'), 'pwsh')), [])
  const [line] = h.pluginLogs()
  assert.match(line.text, /reason resolver-error/)
  assert.match(line.text, /session store unavailable/)
  assert.doesNotMatch(line.text, /\n/, 'the resolver message cannot start a log line of its own')
})

test('on a Windows host the pre-flight speaks at session start, once', async () => {
  const h = await harness({ policy: false, platform: 'win32', tmpdir: 'C:\\ws\\.tmp' })
  await h.ctx.plugin((ctx) => {
    ctx.provide('sandboxPolicy', { resolve: () => ({ mode: 'workspace-write', workspaceRoot: 'C:\\ws' }) })
  })
  const agent = h.agent('a1')
  h.ctx.emit('agent/session-start', { agent, source: 'startup' })
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(agent.injected.length, 1, 'injected before anything failed')
  const [notice] = agent.injected
  assert.equal(notice.source.plugin, 'sandbox-grant-advisor')
  assert.match(notice.source.summary, /temp/i)
  h.behave('pwsh', () => shapes.foreground(0))
  assert.deepEqual(advisories(await h.call(agent, 'pwsh')), [], 'the first call does not repeat it')
  // An agent that starts without the session-start event still hears it, on its first call.
  const late = h.agent('a2')
  assert.equal(advisories(await h.call(late, 'pwsh')).length, 1)
})
