import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { thinkflowHome } from '../../src/llm/index.js';
import { modelsDir } from '../../src/llm/providers/llamacpp/find-local-model.js';
import { databasePath } from '../../src/memory/open-sqlite.js';

const saved = process.env.THINKFLOW_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.THINKFLOW_HOME;
  else process.env.THINKFLOW_HOME = saved;
});

describe('thinkflowHome', () => {
  it('is $THINKFLOW_HOME when set (and not empty), else ~/.thinkflow', () => {
    expect(thinkflowHome({ THINKFLOW_HOME: '/srv/tf' })).toBe('/srv/tf');
    expect(thinkflowHome({})).toBe(join(homedir(), '.thinkflow'));
    expect(thinkflowHome({ THINKFLOW_HOME: '' })).toBe(join(homedir(), '.thinkflow'));
  });

  it('is where the library puts its default stores and looks for models, not only the CLI', () => {
    process.env.THINKFLOW_HOME = '/srv/tf';
    expect(databasePath()).toBe(join('/srv/tf', 'thinkflow.db'));
    expect(modelsDir()).toBe(join('/srv/tf', 'models'));
    expect(databasePath({ dataDir: '/elsewhere' })).toBe(join('/elsewhere', 'thinkflow.db'));
  });
});
