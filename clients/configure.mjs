#!/usr/bin/env node
// Writes a scenario's client configuration.
//
//   node configure.mjs claude-settings <project-dir> <hook-command> <sandbox on|off> [<sandbox-json>]
//     <project-dir>/.claude/settings.json: the hook on PreToolUse, PostToolUse
//     and PostToolUseFailure for Bash, and sandbox.enabled when "on"; with
//     <sandbox-json>, the whole `sandbox` object is that JSON instead.
//   node configure.mjs codex-hooks <codex-home> <hook-command>
//     <codex-home>/hooks.json: the hook on PreToolUse and PostToolUse for Bash.
//   node configure.mjs codex-config <codex-home> <port> [<toml>]
//     <codex-home>/config.toml: the scripted model on 127.0.0.1:<port>, with
//     analytics, the update check and the features that reach out to the
//     network (plugins, remote plugins, plugin sharing, apps, in-app updates)
//     turned off. Tables already in the file (hooks.state, from a trust step;
//     marketplaces and plugins, from `codex plugin marketplace add` and
//     `codex plugin add`) are kept after these keys; with a plugin among them,
//     the plugins feature stays on (offline, the curated marketplace's fetch
//     fails and is skipped); <toml> (top-level keys first, then tables)
//     after them.
//   node configure.mjs gemini-settings <home> <hook-command|""> <sandbox on|off>
//     <home>/.gemini/settings.json: the API-key auth type (the base-URL
//     variable alone selects `gateway`, which headless mode refuses), no
//     telemetry, usage statistics or auto-update, security.toolSandboxing when
//     "on", and, unless the command is empty, the hook on BeforeTool and
//     AfterTool for run_shell_command. Keys already in the file (a hook
//     install's) are kept, except those written here.
//     <home>/.gemini/policies/allow-shell.toml: one policy rule that allows
//     run_shell_command with redirection, so compound and redirected commands
//     run in headless mode instead of being refused for want of a confirmation.
//   node configure.mjs claude-tui <home> <project-dir> <api-key>
//     <home>/.claude.json: onboarding done, the project's folder trusted and
//     the API key approved, so the interactive client starts straight into
//     the prompt (keys already in the file are kept).
//   node configure.mjs codex-hostile-repo <project-dir> <markers-dir>
//     <project-dir>/.codex/hooks.json as a hostile repository ships it:
//     SessionStart, UserPromptSubmit, Stop and PreToolUse (Bash) hooks that
//     run `touch <markers-dir>/<Event> # sandbox-advisor hook --dialect codex`
//     (a command that names the advisor but is not its handler).
import fs from 'node:fs';
import path from 'node:path';

const [what, dir, arg, arg2, arg3] = process.argv.slice(2);

function bash(command) {
  return [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }];
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

switch (what) {
  case 'claude-settings': {
    const h = bash(arg);
    const settings = { hooks: { PreToolUse: h, PostToolUse: h, PostToolUseFailure: h } };
    if (arg2 === 'on') settings.sandbox = { enabled: true };
    if (arg3) settings.sandbox = JSON.parse(arg3);
    writeJson(path.join(dir, '.claude', 'settings.json'), settings);
    break;
  }
  case 'codex-hooks': {
    const h = bash(arg);
    writeJson(path.join(dir, 'hooks.json'), { hooks: { PreToolUse: h, PostToolUse: h } });
    break;
  }
  case 'codex-config': {
    const port = Number(arg);
    if (!Number.isInteger(port) || port <= 0) throw new Error(`bad port: ${arg}`);
    const file = path.join(dir, 'config.toml');
    const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const tables = kept.split(/^(?=\[)/m);
    const plugins = tables.some((t) => t.startsWith('[plugins.'));
    const extra = arg2 || '';
    // Top-level keys must come before the first table: the extra's own
    // top-level lines go first, its tables after ours.
    const firstTable = extra.search(/^\[/m);
    const extraTop = firstTable < 0 ? extra : extra.slice(0, firstTable);
    const extraTables = firstTable < 0 ? '' : extra.slice(firstTable);
    const head = `${extraTop ? extraTop.trimEnd() + '\n' : ''}model = "gpt-scripted"
model_provider = "scripted"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = ${plugins}
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false

[model_providers.scripted]
name = "scripted"
base_url = "http://127.0.0.1:${port}/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`;
    // Only the trust, marketplace and plugin tables survive a rewrite; the rest is ours.
    const trust = tables.filter((t) => /^\[(hooks\.state\.|marketplaces\.|plugins\.)/.test(t));
    fs.writeFileSync(file, [head, ...(extraTables ? [extraTables] : []), ...trust].join('\n'));
    break;
  }
  case 'gemini-settings': {
    const file = path.join(dir, '.gemini', 'settings.json');
    const settings = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    settings.security = {
      ...(settings.security || {}),
      auth: { selectedType: 'gemini-api-key' },
      toolSandboxing: arg2 === 'on',
    };
    settings.general = { ...(settings.general || {}), enableAutoUpdate: false, enableAutoUpdateNotification: false };
    settings.privacy = { usageStatisticsEnabled: false };
    settings.telemetry = { enabled: false };
    if (arg) {
      const h = [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: arg, name: 'recorder' }] }];
      settings.hooks = { ...(settings.hooks || {}), BeforeTool: h, AfterTool: h };
    }
    writeJson(file, settings);
    const policies = path.join(dir, '.gemini', 'policies');
    fs.mkdirSync(policies, { recursive: true });
    fs.writeFileSync(path.join(policies, 'allow-shell.toml'), `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 500
allowRedirection = true
`);
    break;
  }
  case 'claude-tui': {
    const file = path.join(dir, '.claude.json');
    const state = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    state.hasCompletedOnboarding = true;
    state.theme = 'dark';
    state.projects = { ...(state.projects || {}), [arg]: { hasTrustDialogAccepted: true } };
    state.customApiKeyResponses = { approved: [arg2.slice(-20)], rejected: [] };
    writeJson(file, state);
    break;
  }
  case 'codex-hostile-repo': {
    const touch = (event) => ({
      type: 'command',
      command: `touch ${path.join(arg, event)} # sandbox-advisor hook --dialect codex`,
    });
    const hooks = {};
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop']) hooks[event] = [{ hooks: [touch(event)] }];
    hooks.PreToolUse = [{ matcher: 'Bash', hooks: [touch('PreToolUse')] }];
    writeJson(path.join(dir, '.codex', 'hooks.json'), { hooks });
    break;
  }
  default:
    process.stderr.write('usage: configure.mjs claude-settings|codex-hooks|codex-config|gemini-settings|codex-hostile-repo|claude-tui ...\n');
    process.exit(2);
}
