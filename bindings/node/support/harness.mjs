// A real cordis Context with the real ToolRuntime from the registry (no stand-in),
// the real SystemPrompt and (optionally) the real sandbox-policy service, and the
// plugin mounted as a harness would mount it. Tools are registered with bodies
// that throw the producers' exact errors or return the shell's foreground value,
// and are executed through `ctx.tools.execute`, as the agent loop does.
import { mkdtempSync, realpathSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'

import { Context } from '@deepseek-ai/cordis'
import { HarnessError } from '@deepseek-ai/dsh-llm'
import SandboxPolicyService, { setSandboxMode } from '@deepseek-ai/dsh-sandbox-policy'
import { Session } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'

import * as plugin from '../lib/index.js'

/** The producers' exact shapes, as the families' fixtures record them (each family crate's tests/fixtures). */
export const shapes = {
  acl: (dir) => `SetNamedSecurityInfoW failed (Win32 5): grantWrite(${dir})`,
  pty: 'PTY shell exited during startup',
  ptyTimeout: 'PTY shell did not reach readiness before startup timeout',
  /** The shell tools' canonical value of a finished foreground command. */
  foreground: (exitCode, { stdout = '', stderr = '', sandbox } = {}) => ({
    kind: 'foreground',
    exitCode,
    signal: null,
    timedOut: false,
    aborted: false,
    timeoutMs: 120000,
    stdout: { text: stdout, truncated: false },
    stderr: { text: stderr, truncated: false },
    ...(sandbox ? { sandbox } : {}),
  }),
}

/** A coded harness failure, as a `HarnessError` body throws it (`error.info`). */
export function coded(message, code) {
  return new HarnessError(message, code)
}

/**
 * Mounts the harness and the plugin.
 * @param {{ config?: object, policy?: boolean | object, platform?: string }} [options]
 */
export async function harness({ config = {}, policy = true, platform, tmpdir } = {}) {
  const ctx = new Context()
  const logs = []
  ctx.logger.exporter({ levels: { default: 3 }, export: (m) => logs.push(m) })
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(ToolRuntime)
  const workspace = realpathSync(mkdtempSync(join(os.tmpdir(), 'sga-ws-')))
  if (policy) {
    await ctx.plugin(SandboxPolicyService, { mode: 'read-only', workspaceRoot: workspace, ...(typeof policy === 'object' ? policy : {}) })
  }
  const behaviors = new Map()
  for (const name of ['pwsh', 'bash', 'read_file']) {
    ctx.tools.register({
      name,
      description: `${name} (test body)`,
      parameters: { type: 'object', properties: { command: { type: 'string' }, path: { type: 'string' } } },
      output: { schema: {}, render: (_args, value) => [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] },
      async execute(args) {
        const body = behaviors.get(name)
        if (body === undefined) throw new Error(`no behavior for ${name}`)
        return body(args)
      },
    })
  }
  // The plugin reads the host (platform, temp directory) once, when it starts.
  const load = async (pluginConfig) => {
    const restore = stubHost(platform, tmpdir)
    try {
      const loaded = ctx.plugin(plugin, pluginConfig)
      await loaded
      return loaded
    } finally {
      restore()
    }
  }
  let fiber = await load(config)

  let calls = 0
  return {
    ctx,
    workspace,
    logs,
    /** The plugin's fiber (dispose it to unload the plugin). */
    get fiber() {
      return fiber
    },
    /** Loads the plugin again (after a dispose). */
    async reload(nextConfig = config) {
      fiber = await load(nextConfig)
    },
    /** What `tool`'s body does next: a function of the arguments that returns a value or throws. */
    behave(tool, body) {
      behaviors.set(tool, body)
    },
    /** An agent with a real session whose header cwd is the workspace, in `mode` (`null`: no mode event). */
    agent(id, { mode = 'workspace-write', cwd = workspace } = {}) {
      const session = Session.create(id, undefined, { version: 0, id, createdAt: Date.now(), cwd })
      if (mode !== null) setSandboxMode(session, mode)
      const injected = []
      return { id: session.id, session, injected, inject: (m) => injected.push(m) }
    },
    /** Executes one call as the agent loop does. */
    call(agent, tool, args = { command: 'Get-Date' }) {
      calls += 1
      return ctx.tools.execute({ callId: `call-${calls}`, name: tool, arguments: args, agent, signal: new AbortController().signal })
    },
    /** The plugin's own log lines (`type`, text). */
    pluginLogs() {
      return logs.filter((m) => m.name === plugin.name).map((m) => ({ type: m.type, text: format(m.args) }))
    },
  }
}

/** The advisories this plugin folded onto a result. */
export function advisories(result) {
  return (result.additionalContexts ?? []).filter((m) => m.source?.kind === 'plugin' && m.source.plugin === plugin.name)
}

function format(args) {
  const [fmt, ...rest] = args
  let i = 0
  return String(fmt).replace(/%[sdjo]/g, () => String(rest[i++]))
}

/** Stubs `process.platform` and `os.tmpdir()` (through TMPDIR) until the returned function runs. */
function stubHost(platform, tmpdir) {
  const original = Object.getOwnPropertyDescriptor(process, 'platform')
  const originalTmp = process.env.TMPDIR
  if (platform !== undefined) Object.defineProperty(process, 'platform', { ...original, value: platform })
  if (tmpdir !== undefined) process.env.TMPDIR = tmpdir
  return () => {
    Object.defineProperty(process, 'platform', original)
    if (originalTmp === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = originalTmp
  }
}
