import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ConfigError, withoutBom } from '../core/index.js';
import { thinkflowHome } from '../llm/index.js';

/** The CLI's saved defaults, in `config.json` under THINKFLOW_HOME (`thinkflow config set model demo`). */
export const UserConfig = z.object({
  /** The model spec used when neither `--model` nor THINKFLOW_MODEL is given. */
  model: z.string().min(1).optional(),
});
export type UserConfig = z.infer<typeof UserConfig>;

/** The keys `thinkflow config set` accepts. */
export const USER_CONFIG_KEYS = Object.keys(UserConfig.shape) as (keyof UserConfig)[];

/** Where the saved defaults live. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(thinkflowHome(env), 'config.json');
}

/** The saved defaults; none when there is no file. An unreadable file is a ConfigError naming it. */
export function readUserConfig(env: NodeJS.ProcessEnv = process.env): UserConfig {
  const path = userConfigPath(env);
  if (!existsSync(path)) return {};
  let json: unknown;
  try {
    json = JSON.parse(withoutBom(readFileSync(path, 'utf8')));
  } catch (cause) {
    throw new ConfigError({ message: `${path} is not valid JSON; fix it or delete it.`, cause });
  }
  const parsed = UserConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError({ message: `${path}: ${issue.path.join('.') || 'the file'}: ${issue.message}.` });
  }
  return parsed.data;
}

/** Saves the defaults, creating THINKFLOW_HOME if needed. */
export function writeUserConfig(config: UserConfig, env: NodeJS.ProcessEnv = process.env): string {
  const path = userConfigPath(env);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/** A known key, or a ConfigError listing them. */
export function userConfigKey(key: string): keyof UserConfig {
  const found = USER_CONFIG_KEYS.find((k) => k === key);
  if (!found) throw new ConfigError({ message: `Unknown setting "${key}". Settings: ${USER_CONFIG_KEYS.join(', ')}.` });
  return found;
}
