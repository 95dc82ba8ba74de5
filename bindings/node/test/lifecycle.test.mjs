// Configuration (the original plugin's keys), include/exclude, plugin dispose
// and reload, and agent disposal.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { Context } from '@deepseek-ai/cordis'

import * as plugin from '../lib/index.js'
import { advisories, harness, shapes } from '../support/harness.mjs'

const ptyFails = () => { throw new Error(shapes.pty) }

test('the plugin keeps the original name and exports a cordis plugin shape', () => {
  assert.equal(plugin.name, 'sandbox-grant-advisor')
  assert.equal(typeof plugin.apply, 'function')
  assert.deepEqual(plugin.families.slice(0, 2), ['acl-provisioning', 'acl-aggregate-failure'])
  // Every shipped family, each once; runner-exit (issue 24) reads every tool.
  assert.ok(plugin.families.includes('runner-exit'), plugin.families.join(', '))
  assert.equal(new Set(plugin.families).size, plugin.families.length)
})

test('include and exclude narrow every family; exclude wins; an untracked call is transparent', async () => {
  const h = await harness({ policy: false, config: { include: ['pwsh', 'ba*'], exclude: ['bash'] } })
  for (const tool of ['pwsh', 'bash', 'read_file']) h.behave(tool, ptyFails)
  const agent = h.agent('a1')
  assert.deepEqual(advisories(await h.call(agent, 'bash')), [], 'excluded, though included by ba*')
  assert.deepEqual(advisories(await h.call(agent, 'read_file')), [], 'not included')
  assert.deepEqual(h.pluginLogs(), [], 'no withholding note for an untracked call either')
  await h.call(agent, 'pwsh')
  assert.match(h.pluginLogs()[0].text, /reason no-policy-service/, 'a tracked call is looked at')
})

test('an unknown key or a bad value fails the load, naming the key', async () => {
  const ctx = new Context()
  await assert.rejects(async () => { await ctx.plugin(plugin, { enforceAfterr: 1 }) }, /enforceAfterr/)
  await assert.rejects(async () => { await ctx.plugin(plugin, { enforceAfter: 2, maxDenials: 0 }) }, /maxDenials/)
  await assert.rejects(async () => { await ctx.plugin(plugin, { href: 'not a url' }) }, /href/)
})

test('dispose removes every listener; a reload starts from a fresh ledger', async () => {
  const h = await harness()
  h.behave('pwsh', ptyFails)
  const agent = h.agent('a1')
  assert.equal(advisories(await h.call(agent, 'pwsh')).length, 1)
  assert.deepEqual(advisories(await h.call(agent, 'pwsh')), [])

  await h.fiber.dispose()
  const before = h.pluginLogs().length
  const unmounted = await h.call(agent, 'pwsh')
  assert.equal(unmounted.isError, true)
  assert.deepEqual(advisories(unmounted), [], 'nothing listens after dispose')
  assert.equal(h.pluginLogs().length, before)

  await h.reload()
  assert.equal(advisories(await h.call(agent, 'pwsh')).length, 1, 'the reloaded plugin has not spoken to a1 yet')
  assert.deepEqual(advisories(await h.call(agent, 'pwsh')), [])
})

test('an agent that ends is forgotten', async () => {
  const h = await harness()
  h.behave('pwsh', ptyFails)
  const agent = h.agent('a1')
  assert.equal(advisories(await h.call(agent, 'pwsh')).length, 1)
  h.ctx.emit('agent/disposed', { agent })
  assert.equal(advisories(await h.call(agent, 'pwsh')).length, 1, 'a new life of the same id hears it again')
})

test('a direct call with no agent passes through untouched', async () => {
  const h = await harness()
  h.behave('pwsh', ptyFails)
  const result = await h.ctx.tools.execute({ callId: 'direct', name: 'pwsh', arguments: {}, signal: new AbortController().signal })
  assert.equal(result.isError, true)
  assert.equal(result.additionalContexts, undefined)
})
