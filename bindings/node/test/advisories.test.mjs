// Recognition and delivery through the real ToolRuntime: once per agent per
// family, the observe-and-enrich order, and silence on look-alikes.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { createUserMessage } from '@deepseek-ai/dsh-llm'

import { advisories, coded, harness, shapes } from '../support/harness.mjs'

const dllInitFailed = () =>
  shapes.foreground(-1073741502, { sandbox: { mode: 'workspace-write', denied: false, enforcement: 'partial' } })

test('one advisory per agent per family, across two agents', async () => {
  const h = await harness()
  const heard = new Map()
  const agents = [h.agent('agent-1'), h.agent('agent-2')]
  const failures = [
    ['pwsh', () => { throw new Error(shapes.acl('D:\\ws')) }],
    ['pwsh', () => { throw new Error(shapes.pty) }],
    ['bash', dllInitFailed],
  ]
  for (let round = 0; round < 3; round++) {
    for (const agent of agents) {
      for (const [tool, body] of failures) {
        h.behave(tool, body)
        const result = await h.call(agent, tool, { command: `attempt ${round}` })
        for (const notice of advisories(result)) {
          const key = `${agent.id}`
          heard.set(key, [...(heard.get(key) ?? []), notice])
        }
      }
    }
  }
  for (const agent of agents) {
    const notices = heard.get(agent.id) ?? []
    assert.equal(notices.length, 3, `${agent.id} hears each family once`)
    for (const notice of notices) {
      assert.equal(notice.role, 'user')
      assert.deepEqual(Object.keys(notice.source).sort(), ['form', 'kind', 'plugin', 'summary'])
      assert.equal(notice.source.form, 'notice')
      assert.ok(notice.source.summary.length > 0 && [...notice.source.summary].length <= 120)
      assert.equal(notice.content[0].type, 'text')
      assert.equal(typeof notice.id, 'string')
    }
  }
  const [acl, pty, dll] = heard.get('agent-1')
  assert.match(acl.content[0].text, /SetNamedSecurityInfoW failed \(Win32 5\): grantWrite\(D:\\ws\)/)
  assert.match(pty.content[0].text, /PTY shell exited during startup/)
  assert.match(dll.source.summary, /0xC0000142/)
  const delivered = h.pluginLogs().filter((l) => l.text.startsWith('advisory delivered'))
  assert.equal(delivered.length, 6, 'one host-log line per delivered advisory')
})

test('decides, delegates to next, then folds ahead of what came back (accept or block)', async () => {
  const h = await harness({ policy: false })
  const order = []
  // A policy service that records when it is consulted (the real one is exercised in policy.test.mjs).
  await h.ctx.plugin((ctx) => {
    ctx.provide('sandboxPolicy', {
      resolve: ({ session }) => {
        order.push('decide')
        return { mode: 'workspace-write', workspaceRoot: h.workspace, sessionId: session.id }
      },
    })
  })
  // Registered after the plugin, so it runs inside it, as its `next`.
  h.ctx.on('tools/post-execute', async (exec, result, next) => {
    order.push('next')
    const decision = await next()
    const context = createUserMessage({
      content: [{ type: 'text', text: 'theirs' }],
      source: { kind: 'plugin', plugin: 'downstream', form: 'notice', summary: 'theirs' },
    })
    if (exec.arguments.command === 'block') {
      return { kind: 'block', feedback: [{ type: 'text', text: 'blocked downstream' }], additionalContexts: [context] }
    }
    return { ...decision, additionalContexts: [context] }
  })
  h.behave('pwsh', () => { throw new Error(shapes.pty) })
  const accepted = await h.call(h.agent('a1'), 'pwsh', { command: 'accept' })
  assert.deepEqual(order, ['decide', 'next'])
  assert.deepEqual(accepted.additionalContexts.map((m) => m.source.plugin), ['sandbox-grant-advisor', 'downstream'])
  const blocked = await h.call(h.agent('a2'), 'pwsh', { command: 'block' })
  assert.equal(blocked.isError, true, 'a downstream block stays a block')
  assert.deepEqual(blocked.content, [{ type: 'text', text: 'blocked downstream' }])
  assert.deepEqual(blocked.additionalContexts.map((m) => m.source.plugin), ['sandbox-grant-advisor', 'downstream'])
})

test('a successful result that quotes a producer line is silent', async () => {
  const h = await harness()
  const agent = h.agent('a1')
  const log = [shapes.acl('D:\\ws'), shapes.pty, 'sandbox-local windows-acl temp grant materialization failed and its cleanup also failed'].join('\n')
  h.behave('read_file', () => log)
  h.behave('pwsh', () => shapes.foreground(0, { stdout: log, stderr: '0x80041003 Get-CimInstance' }))
  h.behave('bash', () => shapes.foreground(1, { stdout: '[exit code: -1073741502] (0xC0000142)' }))
  for (const tool of ['read_file', 'pwsh', 'bash']) {
    const result = await h.call(agent, tool, { path: 'C:\\logs\\dsh.log', command: 'type dsh.log' })
    assert.equal(result.isError, false)
    assert.deepEqual(advisories(result), [], `${tool}: a quoted line is not a failure`)
  }
  assert.deepEqual(h.pluginLogs(), [], 'nothing delivered, nothing withheld')
})

test('a structured code never stands in for the producer line', async () => {
  const h = await harness()
  const agent = h.agent('a1')
  h.behave('pwsh', () => { throw coded('sandbox runner failed before the command started', 'SANDBOX_RUNNER_FAILED') })
  const silent = await h.call(agent, 'pwsh')
  assert.deepEqual(silent.error.info, { name: 'HarnessError', code: 'SANDBOX_RUNNER_FAILED' })
  assert.deepEqual(advisories(silent), [])
  h.behave('pwsh', () => { throw coded(shapes.pty, 'SHELL_STARTUP_FAILED') })
  const spoken = await h.call(agent, 'pwsh')
  assert.equal(advisories(spoken).length, 1, 'the exact sentence still speaks when a code rides along')
})

test('the unrelated failures of a busy session cross no advisory and no log line', async () => {
  const h = await harness()
  const agent = h.agent('a1')
  h.behave('pwsh', ({ command }) => { throw new Error(`${command}: ${'x'.repeat(4096)}`) })
  h.behave('bash', () => shapes.foreground(2, { stderr: 'ls: cannot access nope: No such file or directory' }))
  for (let i = 0; i < 50; i++) {
    assert.deepEqual(advisories(await h.call(agent, 'pwsh', { command: `c${i}` })), [])
    assert.deepEqual(advisories(await h.call(agent, 'bash', { command: `ls nope${i}` })), [])
  }
  assert.deepEqual(h.pluginLogs(), [])
})

test('rendered content that says more than the envelope is read too, however long', async () => {
  const h = await harness()
  const long = 'y'.repeat(20 * 1024)
  // A result whose rendering says more than `Error: <message>` (the waterfall is fed
  // directly, as the ToolRuntime feeds it, since a plain tool body renders the envelope).
  // The first arm grows the shared encoding buffer after the message is in it; the
  // second finds the producer line only in the content (the runner carrier).
  const arms = [
    ['message-then-long-content', shapes.pty, long, 1],
    ['needle-only-in-content', 'the shell could not start', `${long}\n${shapes.acl('D:\\ws')}`, 1],
  ]
  for (const [id, message, extra, expected] of arms) {
    const agent = h.agent(id)
    const exec = { callId: `c-${id}`, rootCallId: `c-${id}`, name: 'pwsh', arguments: {}, agent, signal: new AbortController().signal }
    const result = { isError: true, error: { message }, content: [{ type: 'text', text: `Error: ${message}` }, { type: 'text', text: extra }] }
    const decision = await h.ctx.waterfall('tools/post-execute', exec, result, () => Promise.resolve({ kind: 'accept' }))
    assert.equal(advisories(decision).length, expected, id)
  }
})
