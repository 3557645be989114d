import { spawnSync } from 'node:child_process';
import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/tools/deadlines.js';

describe('deadline', () => {
  it('fires each deadline after its own time, in order, on one timer per duration', async () => {
    const fired: string[] = [];
    const began = performance.now();
    const at: Record<string, number> = {};
    const mark = (name: string) => () => {
      fired.push(name);
      at[name] = performance.now() - began;
    };
    deadline(40, mark('a'));
    await wait(15);
    deadline(40, mark('b'));
    deadline(10, mark('short'));
    await wait(80);
    expect(fired).toEqual(['short', 'a', 'b']);
    expect(at.a).toBeGreaterThanOrEqual(39);
    expect(at.b).toBeGreaterThanOrEqual(at.a + 10);
  });

  it('never fires a cancelled deadline, and lets later ones of the same duration fire', async () => {
    const fired: string[] = [];
    const first = deadline(20, () => fired.push('first'));
    deadline(20, () => fired.push('second'));
    first.cancel();
    first.cancel();
    await wait(50);
    expect(fired).toEqual(['second']);
  });

  it("keeps a deadline started earlier (by the caller's clock) ahead of one added before it", async () => {
    const fired: string[] = [];
    const now = performance.now();
    deadline(40, () => fired.push('added first'), now);
    deadline(40, () => fired.push('started earlier'), now - 25);
    const cancelled = deadline(40, () => fired.push('cancelled'), now - 30);
    cancelled.cancel();
    await wait(25);
    expect(fired).toEqual(['started earlier']);
    await wait(40);
    expect(fired).toEqual(['started earlier', 'added first']);
  });

  it('keeps watching when a fired deadline starts another of the same duration', async () => {
    const fired: number[] = [];
    deadline(10, () => {
      fired.push(1);
      deadline(10, () => fired.push(2));
    });
    await wait(60);
    expect(fired).toEqual([1, 2]);
  });
});

describe('deadline and process exit', () => {
  const run = (body: string) => {
    const module = JSON.stringify(new URL('../../src/tools/deadlines.ts', import.meta.url).href);
    const script = `import { deadline } from ${module};\n${body}`;
    const began = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { out: child.stdout.trim(), ms: Date.now() - began };
  };

  it('does not keep the process alive once every deadline is cancelled', () => {
    const { out, ms } = run(`deadline(60000, () => console.log('fired')).cancel(); console.log('done');`);
    expect(out).toBe('done');
    expect(ms).toBeLessThan(20_000);
  });

  it('keeps the process alive while a deadline is pending, as a timer would', () => {
    const { out } = run(`deadline(60000, () => {}).cancel(); deadline(200, () => console.log('fired'));`);
    expect(out).toBe('fired');
  });
});
