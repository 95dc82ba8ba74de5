import type { Context } from '@deepseek-ai/cordis'

/** The plugin name (the original plugin's), and the `plugin` of every notice it posts. */
export declare const name: 'sandbox-grant-advisor'

/**
 * The configuration the Rust core accepts: the original plugin's keys plus this
 * project's own. Generated from `advisor_core::config::KEYS`, the one
 * declaration the validator, the CLI and the documentation read too.
 */
export interface Config {
  // BEGIN config keys: generated from advisor_core::config::KEYS; UPDATE_DOCS=1 cargo test -p sandbox-advisor-core --test config_docs
  /** Provisioning failures in one agent after which an identical watched call is refused before dispatch; 0 turns the fail-fast half off. Takes a whole number from 0 to 4294967295; default 0. */
  enforceAfter?: number
  /** Refusals one agent may spend per episode of brokenness. Takes a whole number from 1 to 4294967295; default 2. */
  maxDenials?: number
  /** Tool-name patterns to watch (only `*` is a wildcard); empty means every tool. Takes a list of tool-name patterns (strings); default `[]`. */
  include?: string[]
  /** Tool-name patterns never watched; exclude wins over include. Takes a list of tool-name patterns (strings); default `[]`. */
  exclude?: string[]
  /** Cited in advisories instead of the discussion numbers; unset, an advisory that cites any names their repository. Takes an http or https URL (a string without whitespace, at most 2048 bytes). */
  href?: string
  /** An agent is forgotten (and would hear its advisories again) only after this many other agents were touched since its own last touch. Takes a whole number of at least 1; default 100000. */
  ledgerCapacity?: number
  /** A session's remembered facts are forgotten only after this many other sessions were touched since its own last touch. Takes a whole number of at least 1; default 100000. */
  sessionCapacity?: number
  /** The language of summaries and briefs. Takes `en` or `zh-CN`; default `en`. */
  locale?: 'en' | 'zh-CN'
  /** What the model-facing `text` holds: the brief, or the full account (in English). Takes `brief` or `full`; default `brief`. */
  advisoryText?: 'brief' | 'full'
  /** The DSH Desktop version hosting the harness; unset, an advisory whose remedy depends on it gives each version branch. Takes a version string MAJOR.MINOR.PATCH such as "2.0.11". */
  hostVersion?: string
  // END config keys
}

/** Standard Schema validator; the Rust core checks the keys and names a bad one. */
export declare const Config: import('@standard-schema/spec').StandardSchemaV1<Config, Config>

/** Mounts the advisor on the ToolRuntime's waterfalls. */
export declare function apply(ctx: Context, config?: Config): void

/** The compiled-in families, in precedence order. */
export declare const families: string[]

declare const plugin: { name: typeof name; Config: typeof Config; apply: typeof apply }
export default plugin
