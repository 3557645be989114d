import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import { MODEL_SPEC_FORMS } from '../llm/index.js';
import { addExamples } from './global-options.js';
import { readUserConfig, USER_CONFIG_KEYS, userConfigKey, userConfigPath, writeUserConfig } from './user-config.js';

const MODEL_PREFIXES = [
  'openai:',
  'openai-responses:',
  'anthropic:',
  'gemini:',
  'ollama:',
  'compat:',
  'llamacpp:',
  'scripted:',
];

/** A model spec's form is checked when it is saved; keys and files are checked when it is used. */
function checkModelSpec(spec: string): void {
  if (spec === 'demo' || MODEL_PREFIXES.some((p) => spec.startsWith(p) && spec.length > p.length)) return;
  throw new ConfigError({ message: `Unknown model spec "${spec}". Use one of:\n  ${MODEL_SPEC_FORMS.join('\n  ')}` });
}

/** `thinkflow config set | get | unset | list | path`: saved defaults under THINKFLOW_HOME. */
export function registerConfigCommand(program: Command): void {
  const config = program
    .command('config')
    .description(`Saved defaults (${USER_CONFIG_KEYS.join(', ')}), kept in config.json under THINKFLOW_HOME.`);
  addExamples(config, [
    ['stop typing --model', 'thinkflow config set model demo'],
    ['see what is saved', 'thinkflow config list'],
    ['back to THINKFLOW_MODEL or auto-detection', 'thinkflow config unset model'],
  ]);

  const set = config
    .command('set')
    .description('Save a default. `--model` and THINKFLOW_MODEL still win over it.')
    .argument('<key>', USER_CONFIG_KEYS.join(' | '))
    .argument('<value>', 'the value, e.g. a model spec')
    .action((key: string, value: string) => {
      const name = userConfigKey(key);
      if (name === 'model') checkModelSpec(value);
      const path = writeUserConfig({ ...readUserConfig(), [name]: value });
      process.stderr.write(`saved ${name} = ${value} in ${path}\n`);
    });
  addExamples(set, [
    ['the demo model, no API key', 'thinkflow config set model demo'],
    ['a local Ollama model', 'thinkflow config set model ollama:qwen2.5:7b'],
  ]);

  const get = config
    .command('get')
    .description('Print a saved default (exit 1 when it is not set).')
    .argument('<key>', USER_CONFIG_KEYS.join(' | '))
    .action((key: string) => {
      const value = readUserConfig()[userConfigKey(key)];
      if (value === undefined) process.exitCode = 1;
      else process.stdout.write(`${value}\n`);
    });
  addExamples(get, [
    ['the saved model', 'thinkflow config get model'],
    ['use it in a script', 'MODEL=$(thinkflow config get model) || MODEL=demo'],
  ]);

  const unset = config
    .command('unset')
    .description('Forget a saved default.')
    .argument('<key>', USER_CONFIG_KEYS.join(' | '))
    .action((key: string) => {
      const { [userConfigKey(key)]: _dropped, ...rest } = readUserConfig();
      writeUserConfig(rest);
    });
  addExamples(unset, [['forget the saved model', 'thinkflow config unset model']]);

  const list = config
    .command('list')
    .description('Print every saved default.')
    .option('--json', 'print them as one JSON object')
    .action((flags: { json?: boolean }) => {
      const saved = readUserConfig();
      if (flags.json) process.stdout.write(`${JSON.stringify(saved)}\n`);
      else for (const [key, value] of Object.entries(saved)) process.stdout.write(`${key} = ${value}\n`);
    });
  addExamples(list, [
    ['as text', 'thinkflow config list'],
    ['as JSON', 'thinkflow config list --json'],
  ]);

  const path = config
    .command('path')
    .description('Print where the defaults are kept.')
    .action(() => {
      process.stdout.write(`${userConfigPath()}\n`);
    });
  addExamples(path, [['open it in an editor', '$EDITOR "$(thinkflow config path)"']]);
}
