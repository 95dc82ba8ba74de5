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
//     turned off; <toml> (top-level keys first, then tables) after them.
//     Tables already in the file (hooks.state, from a trust step) are kept
//     after these keys.
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
plugins = false
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
    // Only the trust tables survive a rewrite; the rest is ours.
    const trust = kept.split(/^(?=\[)/m).filter((t) => t.startsWith('[hooks.state.'));
    fs.writeFileSync(file, [head, ...(extraTables ? [extraTables] : []), ...trust].join('\n'));
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
    process.stderr.write('usage: configure.mjs claude-settings|codex-hooks|codex-config|codex-hostile-repo ...\n');
    process.exit(2);
}
