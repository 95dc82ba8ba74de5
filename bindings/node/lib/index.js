// sandbox-grant-advisor: the cordis plugin, backed in process by the Rust core.
//
// It listens on the ToolRuntime's waterfalls the way the harness expects an
// observe-and-enrich plugin to: decide, delegate to `next`, then fold the
// advisory onto whatever came back as a plugin-sourced additional context. It
// refuses a call in `tools/pre-execute` only under the fail-fast budget
// (`enforceAfter > 0`), resolves mode and root through `ctx.sandboxPolicy` when
// one is mounted, and discloses withheld advisories on the harness logger.
//
// Most events cost one property walk and, for a failure or a shell value, one
// call into the addon with the text borrowed from a reused buffer. Only when a
// family's anchors hold does the rest of the event (ids, arguments, value)
// cross; see crates/node-binding/src/lib.rs for the two steps.
import os from 'node:os'

import { boundContextSummary, createUserMessage } from '@deepseek-ai/dsh-llm'

import { native } from './native.js'

/** The plugin name, the original plugin's, and the `plugin` of every notice. */
export const name = 'sandbox-grant-advisor'

/**
 * The configuration keys are the original plugin's — `enforceAfter`,
 * `maxDenials`, `include`, `exclude`, `href` — plus this project's own
 * (README.md, "Configuration"; all declared in `advisor_core::config::KEYS`).
 * The Rust core validates them; an unknown key or a bad value fails the
 * plugin's load with the core's sentence, naming the key.
 */
export const Config = {
  '~standard': {
    version: 1,
    vendor: 'sandbox-advisor',
    validate(input) {
      const config = input ?? {}
      if (typeof config !== 'object' || Array.isArray(config)) {
        return { issues: [{ message: 'sandbox-grant-advisor: the configuration must be an object' }] }
      }
      try {
        native.validateConfig(JSON.stringify(config))
        return { value: config }
      } catch (error) {
        const message = String(error?.message ?? error)
        const key = /config key `([^`]*)`/.exec(message)?.[1]
        return { issues: [{ message: `sandbox-grant-advisor: ${message}`, ...(key ? { path: [key] } : {}) }] }
      }
    },
  },
}

/** Facts about this process, read once when the plugin starts (never a config knob). */
function hostFacts() {
  return {
    platform: process.platform,
    electron: typeof process.versions.electron === 'string',
    tmpdir: os.tmpdir(),
  }
}

const NO_SERVICE = Object.freeze({ unavailable: 'no-policy-service' })
const NO_SESSION = Object.freeze({ unavailable: 'no-session' })
const ENVELOPE = 'Error: '
/** Texts longer than this are encoded into a one-off buffer instead of growing the shared one. */
const SHARED_BUFFER_MAX = 1 << 20

/**
 * Starts the advisor on `ctx`.
 * @param {import('@deepseek-ai/cordis').Context} ctx - the plugin context.
 * @param {object} [config] - the validated configuration.
 */
export function apply(ctx, config) {
  const advisor = new native.Advisor(JSON.stringify(config ?? {}), hostFacts())
  const logger = ctx.logger(name)
  const wantsPreflight = advisor.wantsPreflight
  const enforceAfter = advisor.enforceAfter
  const otherSuccessCrosses = advisor.scanOther()
  const quietRunCrosses = advisor.quietRunCrosses

  /** Tool name → watched? (`include` / `exclude`, a pure function of the configuration). */
  const tracked = new Map()
  /** Agents whose pre-flight the core has settled. */
  const preflighted = new WeakSet()
  /** Agents with a provisioning failure on their fail-fast budget. */
  const armed = new WeakSet()
  /** Executions this plugin refused; their materialized failure must reach the core. */
  const refused = new WeakSet()

  const encoder = new TextEncoder()
  let buffer = new Uint8Array(16 * 1024)

  const tracks = (tool) => {
    let yes = tracked.get(tool)
    if (yes === undefined) {
      yes = advisor.tracks(String(tool))
      if (tracked.size < 4096) tracked.set(tool, yes)
    }
    return yes
  }

  /** Encodes `text` at `offset` in the shared buffer (grown up to a bound); returns the end, or -1 past the bound. */
  const encodeAt = (text, offset) => {
    const worst = offset + text.length * 3
    if (worst > buffer.length) {
      if (worst > SHARED_BUFFER_MAX) return -1
      const bigger = new Uint8Array(Math.max(worst, buffer.length * 2))
      bigger.set(buffer.subarray(0, offset))
      buffer = bigger
    }
    const view = offset === 0 ? buffer : buffer.subarray(offset)
    return offset + encoder.encodeInto(text, view).written
  }

  /** Step 1: does any family's anchor hold for this result? */
  const worthPosting = (result) => {
    if (result.isError) {
      const message = failureMessage(result)
      const extra = renderedBeyondEnvelope(result.content, message)
      let end = encodeAt(message, 0)
      const messageEnd = end
      if (end >= 0 && extra !== undefined) end = encodeAt(extra, end)
      if (end < 0) {
        const m = encoder.encode(message)
        const bytes = extra === undefined ? m : concat(m, encoder.encode(extra))
        return advisor.scanFailure(bytes, m.length, bytes.length)
      }
      return advisor.scanFailure(buffer, messageEnd, end)
    }
    const value = result.value
    if (value === null || typeof value !== 'object' || value.kind !== 'foreground') return otherSuccessCrosses
    const code = value.exitCode
    const exit = typeof code === 'number' ? code : code === null ? 0 : Number.NaN
    const denied = value.sandbox?.denied === true
    const stderr = value.stderr?.text
    if (typeof stderr !== 'string' || stderr.length === 0) {
      // Exit 0 (or a signal), no denial stamp, no stderr: the anchors' answer is a constant.
      if (exit === 0 && !denied) return quietRunCrosses
      return advisor.scanRun(exit, denied, buffer, 0)
    }
    const end = encodeAt(stderr, 0)
    if (end < 0) {
      const bytes = encoder.encode(stderr)
      return advisor.scanRun(exit, denied, bytes, bytes.length)
    }
    return advisor.scanRun(exit, denied, buffer, end)
  }

  /** The harness's policy for this agent's session, or why there is none. */
  const policyFacts = (agent) => {
    let service
    try {
      service = ctx.get('sandboxPolicy')
    } catch {
      service = undefined
    }
    if (service === undefined || service === null || typeof service.resolve !== 'function') return NO_SERVICE
    const session = agent.session
    if (session === undefined || session === null) return NO_SESSION
    let policy
    try {
      policy = service.resolve({ session })
    } catch (error) {
      return resolverError(error)
    }
    if (policy !== null && typeof policy === 'object' && typeof policy.then === 'function') {
      return Promise.resolve(policy).then(policyOf, resolverError)
    }
    return policyOf(policy)
  }

  const disclose = (agent, withheld) => {
    for (const w of withheld) {
      logger.warn(
        'advisory withheld: family %s, seat %s, agent %s, reason %s (%s)',
        w.family, w.seat, JSON.stringify(String(agent.id)), w.reason, w.detail,
      )
    }
  }

  const notices = (agent, advisories) =>
    advisories.map((a) => {
      logger.warn('advisory delivered: family %s, agent %s: %s', a.family, JSON.stringify(String(agent.id)), a.summary)
      return createUserMessage({
        content: [{ type: 'text', text: a.textParts.join('') }],
        source: { kind: 'plugin', plugin: name, form: 'notice', summary: boundContextSummary(a.summary) },
      })
    })

  /** What the plugin does with an answer: note the agent's state, disclose, build the notices. */
  const settle = (agent, answer) => {
    // The core has now settled this agent's pre-flight (it was given the policy if it needed it).
    if (wantsPreflight) preflighted.add(agent)
    if (answer === null) return undefined
    if (answer.feedsBudget) armed.add(agent)
    disclose(agent, answer.withheld)
    return answer.advisories.length === 0 ? undefined : notices(agent, answer.advisories)
  }

  /**
   * Step 2: the whole event. Synchronous unless the core asks for the policy
   * (then the harness's resolver may be awaited): returns the notices, nothing,
   * or a promise of either.
   */
  const decide = (exec, agent, result) => {
    const e = postEvent(exec, agent, result)
    const answer = advisor.post(e.agent, e.call, e.tool, e.arguments, e.message, e.content, e.value)
    if (answer === null || !answer.needPolicy) return settle(agent, answer)
    const withPolicy = (policy) => settle(agent, advisor.post(e.agent, e.call, e.tool, e.arguments, e.message, e.content, e.value, policy))
    const policy = policyFacts(agent)
    return typeof policy.then === 'function' ? policy.then(withPolicy) : withPolicy(policy)
  }

  const failed = (exec, error) => {
    // A broken advisor lets the call through unchanged.
    logger.error('sandbox-grant-advisor failed on call %s: %s', JSON.stringify(String(exec.callId)), error?.message ?? error)
    return undefined
  }

  /** Decide, then delegate to `next`, then fold ours ahead of whatever came back. */
  const enrich = (exec, agent, result, next) => {
    let ours
    try {
      ours = decide(exec, agent, result)
    } catch (error) {
      ours = failed(exec, error)
    }
    if (ours === undefined) return next()
    if (typeof ours.then === 'function') {
      return ours.then(
        (settled) => (settled === undefined ? next() : next().then((d) => fold(d, settled))),
        (error) => (failed(exec, error), next()),
      )
    }
    return next().then((d) => fold(d, ours))
  }

  ctx.on('tools/post-execute', (exec, result, next) => {
    const agent = exec.agent
    if (agent === undefined || agent === null || !tracks(exec.name)) return next()
    if (
      refused.has(exec) ||
      (wantsPreflight && !preflighted.has(agent)) ||
      (!result.isError && armed.has(agent))
    ) {
      refused.delete(exec)
      return enrich(exec, agent, result, next)
    }
    let worth
    try {
      worth = worthPosting(result)
    } catch (error) {
      logger.error('sandbox-grant-advisor could not read call %s: %s', JSON.stringify(String(exec.callId)), error?.message ?? error)
      return next()
    }
    return worth ? enrich(exec, agent, result, next) : next()
  })

  if (enforceAfter > 0) {
    ctx.on('tools/pre-execute', (exec, next) => {
      const agent = exec.agent
      if (agent === undefined || agent === null || !armed.has(agent) || !tracks(exec.name)) return next()
      let refusal
      try {
        refusal = advisor.pre(String(agent.id), String(exec.callId), String(exec.name), JSON.stringify(exec.arguments ?? {}))
      } catch (error) {
        logger.error('sandbox-grant-advisor failed before call %s: %s', JSON.stringify(String(exec.callId)), error?.message ?? error)
        return next()
      }
      if (refusal === null || refusal === undefined) return next()
      // Refuse without delegating: no later listener should ask approval for a call refused anyway.
      refused.add(exec)
      logger.warn('refused call %s of agent %s (%s): it already failed provisioning', JSON.stringify(String(exec.callId)), JSON.stringify(String(agent.id)), refusal.family)
      return Promise.resolve({ kind: 'deny', reason: refusal.reason })
    })
  }

  if (wantsPreflight) {
    ctx.on('agent/session-start', ({ agent }) => {
      void (async () => {
        try {
          const id = String(agent.id)
          let answer = advisor.sessionStart(id)
          if (answer?.needPolicy) answer = advisor.sessionStart(id, await policyFacts(agent))
          for (const message of settle(agent, answer) ?? []) agent.inject?.(message)
        } catch (error) {
          logger.error('sandbox-grant-advisor failed at session start: %s', error?.message ?? error)
        }
      })()
    })
  }

  ctx.on('agent/disposed', ({ agent }) => {
    if (agent === undefined || agent === null) return
    advisor.agentEnd(String(agent.id))
    armed.delete(agent)
    preflighted.delete(agent)
  })
}

function failureMessage(result) {
  const message = result.error?.message
  return typeof message === 'string' ? message : ''
}

/** The rendered text when it says more than `Error: <message>`, else `undefined`. */
function renderedBeyondEnvelope(content, message) {
  if (!Array.isArray(content)) return undefined
  if (content.length === 1) {
    const block = content[0]
    if (block?.type === 'text' && typeof block.text === 'string') {
      const text = block.text
      // `slice` + `===` compares in one flat pass; `endsWith` walks character by character.
      if (text.length === message.length + ENVELOPE.length && text.startsWith(ENVELOPE) && text.slice(ENVELOPE.length) === message) {
        return undefined
      }
      return text
    }
  }
  const texts = []
  for (const block of content) if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  return texts.join('\n')
}

/** Our notices ahead of the contexts already on the downstream decision, whatever its kind. */
function fold(downstream, ours) {
  const theirs = downstream?.additionalContexts
  return { ...downstream, additionalContexts: theirs === undefined ? ours : [...ours, ...theirs] }
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/** The settled call, reduced to what recognition reads. */
function postEvent(exec, agent, result) {
  const event = {
    agent: String(agent.id),
    call: String(exec.callId),
    tool: String(exec.name),
    arguments: JSON.stringify(exec.arguments ?? {}),
  }
  if (result.isError) {
    const message = failureMessage(result)
    event.message = message
    const extra = renderedBeyondEnvelope(result.content, message)
    if (extra !== undefined) event.content = extra
  } else {
    event.value = JSON.stringify(projection(result.value))
  }
  return event
}

/** A shell value's recognition fields (never stdout); other values are not read. */
function projection(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const stamp = value.sandbox
  return {
    kind: value.kind,
    exitCode: value.exitCode,
    stderr: value.stderr && typeof value.stderr === 'object' ? { text: value.stderr.text } : value.stderr,
    sandbox:
      stamp && typeof stamp === 'object'
        ? { mode: stamp.mode, denied: stamp.denied, enforcement: stamp.enforcement, runnerFailed: stamp.runnerFailed }
        : stamp,
  }
}

function policyOf(policy) {
  if (policy === null || typeof policy !== 'object' || typeof policy.mode !== 'string') {
    return { unavailable: 'resolver-error', message: 'sandboxPolicy.resolve returned no mode' }
  }
  return {
    mode: policy.mode,
    workspaceRoot: typeof policy.workspaceRoot === 'string' ? policy.workspaceRoot : undefined,
  }
}

function resolverError(error) {
  return { unavailable: 'resolver-error', message: `sandboxPolicy.resolve threw: ${String(error?.message ?? error)}` }
}

/** The compiled-in families, in precedence order. */
export const families = native.families()

export default { name, Config, apply }
