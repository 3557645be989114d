/**
 * Escape attempts, on both backends: each is refused with a clear error or contained, and the host is
 * untouched (checked on the host itself, not only in what the command printed).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import {
  sandboxWorkspace,
  virtualWorkspace,
  type Workspace,
  type WorkspaceLimits,
  workspaceTools,
} from '../../src/workspace/index.js';

const base = mkdtempSync(join(tmpdir(), 'thinkflow-escape-'));
chmodSync(base, 0o755);
const outside = join(base, 'outside-secret.txt');
writeFileSync(outside, 'host secret');
let server: Server;
let hits = 0;
let port = 0;
beforeAll(async () => {
  server = createServer((_, res) => {
    hits++;
    res.end('loopback server reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(base, { recursive: true, force: true });
});
let n = 0;

const backends: [string, (limits?: WorkspaceLimits) => Promise<Workspace>][] = [
  ['virtual', (limits) => virtualWorkspace({ limits })],
  ['sandbox', (limits) => sandboxWorkspace({ dir: join(base, `ws${++n}`), limits })],
];

const shadowLine = existsSync('/etc/shadow') ? readFileSync('/etc/shadow', 'utf8').split('\n')[0] : 'root:';
const call = (id: string, command: string) => ({
  text: '',
  toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }],
});

describe.each(backends)('escape attempts on the %s backend', (kind, create) => {
  it('cannot read /etc/shadow, /root, /home or the host through /proc/self/root', async () => {
    const ws = await create();
    const result = await ws.exec(
      'cat /etc/shadow; ls /root; ls /home; cat /proc/self/root/etc/shadow; ls /proc/self/root/; cat /proc/1/root/etc/shadow; cat ' +
        outside,
    );
    const seen = result.stdout + result.stderr;
    expect(seen).not.toContain(shadowLine);
    expect(seen).not.toContain('host secret');
    expect(result.stdout).not.toMatch(/^(root|home|work)$/m);
    await expect(ws.readFile('/proc/self/root/etc/shadow')).rejects.toThrow(/outside the workspace/);
    await ws.dispose();
  });

  it('cannot write outside the root: system folders, the parent, the host /tmp', async () => {
    const ws = await create();
    const mark = `thinkflow-escape-${process.pid}-${kind}`;
    await ws.exec(
      `echo pwned > /tmp/${mark}; echo pwned > ../${mark}; echo pwned > /usr/${mark}; echo pwned > /etc/${mark}; echo pwned > ${outside}`,
    );
    for (const path of [`/tmp/${mark}`, join(base, mark), `/usr/${mark}`, `/etc/${mark}`])
      expect(existsSync(path), path).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('host secret');
    await expect(ws.writeFile(`../${mark}`, 'x')).rejects.toThrow(/outside the workspace/);
    await ws.dispose();
  });

  it('cannot reach a server on the host loopback, nor resolve names', async () => {
    const ws = await create({ timeoutMs: 10_000 });
    hits = 0;
    const result = await ws.exec(
      `curl -s -m 3 http://127.0.0.1:${port}/; curl -s -m 3 http://localhost:${port}/; ` +
        `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected) 2>&1; getent hosts example.com; echo end`,
    );
    expect(result.stdout).not.toContain('loopback server reached');
    if (kind === 'sandbox') expect(result.stdout).not.toContain('connected');
    expect(result.stdout).not.toMatch(/\d+\.\d+\.\d+\.\d+\s+example\.com/);
    expect(hits).toBe(0);
    await ws.dispose();
  });

  it('never shows a host secret in the environment', async () => {
    process.env.THINKFLOW_ESCAPE_SECRET = 'sk-escape-secret';
    try {
      const ws = await create();
      const result = await ws.exec(
        'env; cat /proc/self/environ /proc/1/environ 2>/dev/null; echo $THINKFLOW_ESCAPE_SECRET',
      );
      expect(result.stdout + result.stderr).not.toContain('sk-escape-secret');
      await ws.dispose();
    } finally {
      delete process.env.THINKFLOW_ESCAPE_SECRET;
    }
  });

  it('contains sleep 1000, 100 MB of output and a 2 GB file', async () => {
    const ws = await create({ timeoutMs: 20_000, diskBytes: 20 * 1024 * 1024, outputBytes: 64 * 1024 });
    const slept = await ws.exec('sleep 1000', { timeoutMs: 500 });
    expect(slept).toMatchObject({ exitCode: 124, limit: 'time' });
    // 100 MB in 1 MB lines (the virtual /dev/zero is empty), and 2 GB appended 1 MB at a time.
    const loud = await ws.exec('for i in $(seq 1 100); do printf "%1000000s\\n" x; done');
    expect(loud.limit).toBe('output');
    expect(loud.stdout.length).toBeLessThan(64 * 1024 + 200);
    expect(loud.stdout).toMatch(/output cut/);
    const big = await ws.exec('for i in $(seq 1 2000); do printf "%1000000s" x >> big.bin || exit 1; done');
    expect(big.exitCode).not.toBe(0);
    const size = await ws.stat('big.bin').then(
      (s) => s.size,
      () => 0,
    );
    expect(size).toBeLessThanOrEqual(20 * 1024 * 1024);
    await ws.dispose();
  }, 60_000);

  it('refuses a denied command smuggled through bash -c, $(…), eval, an alias or a variable', async () => {
    const ws = await create();
    await ws.writeFile('重要.txt', '别删');
    const smuggled = [
      'bash -c "rm -rf 重要.txt"',
      'echo $(rm -rf 重要.txt)',
      "eval 'rm -rf 重要.txt'",
      'alias r=rm; r -rf 重要.txt',
      'X=rm; $X -rf 重要.txt',
    ];
    const model = scriptedModel([...smuggled.map((c, i) => call(`c${i}`, c)), '没删。']);
    const events: AgentEvent[] = [];
    const agent = new Agent({ model, tools: workspaceTools(ws, { policy: { commands: { deny: ['rm'] } } }) });
    await agent.run('删掉', { onEvent: (e) => events.push(e), approve: () => false });
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends.map((e) => e.type === 'tool_end' && e.ok)).toEqual([false, false, false, false, false]);
    expect(await ws.readFile('重要.txt')).toBe('别删');
    await ws.dispose();
  });
});

describe('escape attempts only a real sandbox can make', () => {
  it('contains a fork bomb within the process limit, and leaves no process behind', async () => {
    const ws = await sandboxWorkspace({ dir: join(base, 'bomb'), limits: { processes: 32, timeoutMs: 3000 } });
    const result = await ws.exec(':(){ :|:& };:; sleep 2; echo survived');
    expect(result.limit === 'processes' || result.limit === 'time').toBe(true);
    // The PID namespace goes down with bwrap: within a moment no process of the sandbox's user is left.
    const left = () =>
      execFileSync('ps', ['-eo', 'user,comm'])
        .toString()
        .split('\n')
        .filter((l) => /^(nobody|65534)\s/.test(l));
    for (let i = 0; i < 20 && left().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(left()).toEqual([]);
    await ws.dispose();
  });

  it('a hard link into the host is broken at start; one added later is refused to read and replaced on write', async () => {
    const dir = join(base, 'links');
    execFileSync('mkdir', ['-p', dir]);
    linkSync(outside, join(dir, 'early'));
    const ws = await sandboxWorkspace({ dir });
    await ws.exec('echo appended >> early');
    expect(readFileSync(outside, 'utf8')).toBe('host secret');
    linkSync(outside, join(dir, 'late'));
    await expect(ws.readFile('late')).rejects.toThrow(/hard link to a file outside/);
    await ws.writeFile('late', 'replaced');
    expect(readFileSync(outside, 'utf8')).toBe('host secret');
    await ws.dispose();
  });

  it('symlinks out are refused by every file operation; in the sandbox they lead to its own empty tree', async () => {
    const ws = await sandboxWorkspace({ dir: join(base, 'symlinks') });
    await ws.exec(`ln -s ${base} out; ln -s / root`);
    await expect(ws.readFile('out/outside-secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(ws.list('root')).rejects.toThrow(/outside the workspace/);
    await expect(ws.writeFile('out/new.txt', 'x')).rejects.toThrow(/outside the workspace/);
    await expect(ws.remove('out/outside-secret.txt')).rejects.toThrow(/outside the workspace/);
    expect(existsSync(outside)).toBe(true);
    const inside = await ws.exec('cat out/outside-secret.txt');
    expect(inside.stdout).not.toContain('host secret');
    await ws.dispose();
  });

  it('with network.allow, reaches only the named host:port through the proxy, never another loopback port', async () => {
    const other = createServer((_, res) => res.end('other server reached'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const ws = await sandboxWorkspace({ dir: join(base, 'net'), network: { allow: [`127.0.0.1:${port}`] } });
    try {
      const allowed = await ws.exec(`curl -s -m 5 http://127.0.0.1:${port}/`);
      expect(allowed.stdout).toBe('loopback server reached');
      const refused = await ws.exec(
        `curl -s -m 5 http://127.0.0.1:${otherPort}/; curl -s -m 5 http://localhost:${port}/`,
      );
      expect(refused.stdout).toMatch(/not an allowed host/);
      expect(refused.stdout).not.toContain('other server reached');
      const direct = await ws.exec(`curl -s -m 3 --noproxy '*' http://127.0.0.1:${port}/ || echo direct-refused`);
      expect(direct.stdout).toContain('direct-refused');
    } finally {
      await ws.dispose();
      await new Promise((resolve) => other.close(resolve));
    }
  }, 30_000);
});
