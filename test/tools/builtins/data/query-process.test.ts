import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSession, type DataSession } from '../../../../src/tools/builtins/data/data-session.js';

let root: string;
let session: DataSession;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tf-qp-'));
  await writeFile(path.join(root, 'data.csv'), 'a,b\n1,2\n');
  // Limits of its own, so this session does not share its process with another test's.
  session = createDataSession(root, { timeMs: 20_000 });
});

afterAll(async () => {
  session.close();
  await rm(root, { recursive: true, force: true });
});

/** Pids of this process's children (from /proc). */
function children(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const select = (sql: string) => session.query({ views: { data: 'data.csv' }, sql, untrusted: true, maxRows: 5 });

describe('the query process', () => {
  it('runs queries in a child process; when that process dies mid-query the query fails clearly, and the next starts a new one', async () => {
    const before = new Set(children());
    expect((await select('SELECT sum(a) AS s FROM data')).rows).toEqual([['1']]);
    const started = children().filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    const long = select('SELECT count(*) FROM range(1000000000000)');
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(started[0], 'SIGKILL');
    await expect(long).rejects.toThrow(/stopped unexpectedly \(SIGKILL\)/);
    expect((await select('SELECT b FROM data')).rows).toEqual([['2']]);
    expect(children().filter((pid) => !before.has(pid))).not.toContain(started[0]);
  }, 60_000);
});
