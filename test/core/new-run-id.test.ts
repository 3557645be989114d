import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { newRunId } from '../../src/core/new-run-id.js';

describe('newRunId', () => {
  it('gives every run of a process its own UUID-shaped id', () => {
    const ids = Array.from({ length: 10_000 }, newRunId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 3))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('keeps ids of different processes apart', () => {
    const module = JSON.stringify(new URL('../../src/core/new-run-id.ts', import.meta.url).href);
    const script = `import { newRunId } from ${module}; console.log(newRunId());`;
    const first = () =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      }).stdout.trim();
    const [a, b] = [first(), first()];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
