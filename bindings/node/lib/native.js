// Loads the Node-API addon built from crates/node-binding (`npm run build`).
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(new URL('../sandbox-advisor.node', import.meta.url))
if (!existsSync(file)) {
  throw new Error(`sandbox-grant-advisor: the native addon is missing (${file}); build it with \`npm run build\` in bindings/node`)
}

/** The addon: `Advisor`, `validateConfig`, `families`. */
export const native = createRequire(import.meta.url)(file)
