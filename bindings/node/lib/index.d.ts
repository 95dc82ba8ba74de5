import type { Context } from '@deepseek-ai/cordis'

/** The plugin name (the original plugin's), and the `plugin` of every notice it posts. */
export declare const name: 'sandbox-grant-advisor'

/** The original plugin's configuration keys, plus `ledgerCapacity`. */
export interface Config {
  /** Provisioning failures in one agent after which an identical failing call is refused before dispatch; 0 (default) turns that off. */
  enforceAfter?: number
  /** Refusals one agent may spend per episode of brokenness (default 2). */
  maxDenials?: number
  /** Tool-name wildcards to watch; empty (default) means every tool. */
  include?: string[]
  /** Tool-name wildcards never watched; exclude wins. */
  exclude?: string[]
  /** Cited in advisories instead of the discussion numbers. */
  href?: string
  /** Agents tracked before the least recently seen is forgotten (default 100 000). */
  ledgerCapacity?: number
  /**
   * The DSH Desktop version hosting the harness, `MAJOR.MINOR.PATCH` (e.g. `"2.0.11"`).
   * Absent (default): unknown, and an advisory whose remedy depends on it gives each
   * version branch. The plugin cannot read it itself: no in-process signal carries it.
   */
  hostVersion?: string
}

/** Standard Schema validator; the Rust core checks the keys and names a bad one. */
export declare const Config: import('@standard-schema/spec').StandardSchemaV1<Config, Config>

/** Mounts the advisor on the ToolRuntime's waterfalls. */
export declare function apply(ctx: Context, config?: Config): void

/** The compiled-in families, in precedence order. */
export declare const families: string[]

declare const plugin: { name: typeof name; Config: typeof Config; apply: typeof apply }
export default plugin
