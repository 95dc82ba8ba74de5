// One sentence for one bad value on every surface (issue 29): the cases the
// core and the CLI's file are held to (crates/sandbox-advisor/tests/config_wording.rs),
// through the addon, the plugin's Standard Schema validator, and a real load.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'

import plugin from '../lib/index.js'
import { native } from '../lib/native.js'
import { harness } from '../support/harness.mjs'

const { cases } = JSON.parse(
  readFileSync(new URL('../../../crates/advisor-core/tests/fixtures/config-wording.json', import.meta.url), 'utf8'),
)
const linux = { platform: 'linux', electron: false, tmpdir: '/tmp' }

/** `config` is refused with exactly `message` by the addon and by the plugin's validator. */
function check(config, message) {
  const text = JSON.stringify(config)
  assert.throws(() => native.validateConfig(text), (e) => e.message === message, text)
  assert.throws(() => new native.Advisor(text, linux), (e) => e.message === message, text)
  const { issues } = plugin.Config['~standard'].validate(config)
  const key = /config key `([^`]*)`/.exec(message)[1]
  assert.deepEqual(issues, [{ message: `sandbox-grant-advisor: ${message}`, path: [key] }], text)
}

test('a bad value gets the sentence the core and the CLI give, naming the key', () => {
  assert.ok(cases.length > 10)
  for (const { config, message } of cases) check(config, message)
})

test('a bad value fails the plugin\'s load with that sentence', async () => {
  const { message } = cases[0]
  await assert.rejects(harness({ config: cases[0].config }), (e) => String(e?.message ?? e).includes(message))
})
