// The fail-fast half: with `enforceAfter`, an identical call that already failed
// provisioning is refused in `tools/pre-execute`, within `maxDenials`, and the
// budget re-arms once the call succeeds.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { advisories, harness, shapes } from '../support/harness.mjs'

function counted(h) {
  const state = { runs: 0, fail: true }
  h.behave('pwsh', () => {
    state.runs += 1
    if (state.fail) throw new Error(shapes.acl('D:\\ws'))
    return shapes.foreground(0, { stdout: 'ok' })
  })
  return state
}

test('an identical failing call is refused before dispatch, and re-armed after a success', async () => {
  const h = await harness({ config: { enforceAfter: 2, maxDenials: 1 } })
  const laterListener = []
  h.ctx.on('tools/pre-execute', (exec, next) => {
    laterListener.push(exec.callId)
    return next()
  })
  const state = counted(h)
  const agent = h.agent('a1')
  const same = { command: 'Get-Date' }

  assert.equal(advisories(await h.call(agent, 'pwsh', same)).length, 1, 'advised on the first failure')
  await h.call(agent, 'pwsh', same)
  assert.equal(state.runs, 2)

  const before = laterListener.length
  const refused = await h.call(agent, 'pwsh', same)
  assert.equal(state.runs, 2, 'the refused call never reached the tool body')
  assert.equal(laterListener.length, before, 'nor a later pre-execute listener')
  assert.equal(refused.isError, true)
  assert.match(refused.content[0].text, /^Error: sandbox-advisor refused this call before it ran/)
  assert.deepEqual(advisories(refused), [], 'its materialized failure is neither counted nor answered')

  const other = await h.call(agent, 'pwsh', { command: 'Get-ChildItem' })
  assert.equal(state.runs, 3, 'a different call is not refused')
  assert.equal(other.isError, true)

  // maxDenials (1) is spent: the identical call goes through, and this time it succeeds.
  state.fail = false
  const through = await h.call(agent, 'pwsh', same)
  assert.equal(through.isError, false)
  assert.equal(state.runs, 4)

  // Re-armed: it breaks again and is refused again.
  state.fail = true
  await h.call(agent, 'pwsh', same)
  assert.equal(state.runs, 5)
  const again = await h.call(agent, 'pwsh', same)
  assert.equal(state.runs, 5, 'refused again after the success re-armed the budget')
  assert.match(again.content[0].text, /refused this call/)

  const refusals = h.pluginLogs().filter((l) => l.text.startsWith('refused call'))
  assert.equal(refusals.length, 2)
})

test('enforceAfter 0 (the default) never refuses', async () => {
  const h = await harness()
  const state = counted(h)
  const agent = h.agent('a1')
  for (let i = 0; i < 5; i++) await h.call(agent, 'pwsh')
  assert.equal(state.runs, 5)
})

test('another agent is never refused for this one\'s failures', async () => {
  const h = await harness({ config: { enforceAfter: 1 } })
  const state = counted(h)
  await h.call(h.agent('a1'), 'pwsh')
  await h.call(h.agent('a2'), 'pwsh')
  assert.equal(state.runs, 2)
})
