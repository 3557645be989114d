import { existsSync, readdirSync } from 'node:fs';
import { ConfigError } from '../core/index.js';

/** The config file names `serve`, `worker`, `workflow` and `runs fork` look for, in order, without `--config`. */
export const DEFAULT_CONFIGS = [
  'thinkflow.config.ts',
  'thinkflow.config.mts',
  'thinkflow.config.js',
  'thinkflow.config.mjs',
  'thinkflow.config.yaml',
  'thinkflow.config.yml',
  'thinkflow.config.json',
];

/**
 * The config to load: `--config`, or the first `thinkflow.config.*` in the working folder. With neither, a
 * ConfigError points a newcomer at `thinkflow studio` (the ready-made demo) and says how to write a config.
 */
export function configPath(flag: string | undefined, command: string): string {
  if (flag !== undefined) return flag;
  const found = DEFAULT_CONFIGS.find((name) => existsSync(name));
  if (found) return found;
  // A config under a near name (`thinkflow.yaml`, `Thinkflow.config.YAML`): say how to have it read.
  const near = listed().find((name) => NEAR_NAME.test(name) && !DEFAULT_CONFIGS.includes(name));
  throw new ConfigError({
    message: [
      `No thinkflow.config.ts (or .mts, .js, .mjs, .yaml, .yml, .json) here for \`thinkflow ${command}\`.`,
      ...(near
        ? [
            `  ${near} is here but not read by that name: rename it thinkflow.config${extensionOf(near)}, or pass --config ${near}.`,
          ]
        : []),
      '  The ready-made demo (the demo agent and its tools, in your browser, no API key):  thinkflow studio',
      '  Your own agents: write thinkflow.config.yaml, e.g.  agents: { assistant: { model: demo } },',
      '  then  thinkflow serve  (or pass --config FILE).',
    ].join('\n'),
  });
}

/** `thinkflow.yaml`, `thinkflow.config.yml`'s neighbours: a config file a newcomer named otherwise. */
const NEAR_NAME = /^thinkflow(\.config)?\.(ts|mts|js|mjs|ya?ml|json)$/i;

function extensionOf(name: string): string {
  return name.slice(name.lastIndexOf('.')).toLowerCase();
}

/** The working folder's names; none when it cannot be listed (the error above is still the one to give). */
function listed(): string[] {
  try {
    return readdirSync('.');
  } catch {
    return [];
  }
}
