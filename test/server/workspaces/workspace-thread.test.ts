import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, servedConfig } from '../spawn-server.js';

// The `threaded` agent: its input is the command it runs; "GATED <command>" waits for GATE_FILE before a second one.
const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'workspace-durable.config.ts');
const { start, cleanups } = servedConfig(CONFIG);

const sandboxed = process.platform === 'linux' && existsSync('/usr/bin/bwrap');
const KINDS = [
  ['memory', true],
  ['sandbox', sandboxed],
] as const;

/** A data dir and the env of a `threaded` server of `kind`. */
function setup(kind: 'memory' | 'sandbox') {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  chmodSync(dir.path, 0o755);
  const env: Record<string, string> = {
    WS_KIND: kind,
    WS_DIR: join(dir.path, 'workspaces'),
    GATE_FILE: join(dir.path, 'gate'),
    THINKFLOW_API_TOKENS: '',
  };
  return { dir: dir.path, env };
}

/** Runs `threaded` on `input` (on `threadId`, if given) and waits for its end. */
async function turn(server: ServerProcess, input: string, threadId?: string): Promise<RunRecord> {
  const response = await fetch(`${server.url}/v1/agents/threaded/runs`, postJson({ input, threadId, wait: true }));
  expect(response.status).toBe(200);
  return (await response.json()) as RunRecord;
}

/** Waits for run `id` to end, read from the server. */
function ended(server: ServerProcess, id: string): Promise<RunRecord> {
  return eventually(async () => {
    const body = (await (await fetch(`${server.url}/v1/runs/${id}`)).json()) as RunRecord;
    return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
  }, 60_000);
}

describe('a workspace per conversation thread (scope: thread)', () => {
  it.each(KINDS)(
    '%s: turns of a thread share files, threads never see each other, one turn at a time (409), a fork gets a copy',
    async (kind, can) => {
      if (!can) return;
      const { dir, env } = setup(kind);
      const server = await start(dir, env);

      const first = await turn(server, 'echo 第一轮 > 笔记.txt && ls', 'chat-1');
      expect(first.thread).toBe('chat-1');
      expect(first.result?.output).toContain('笔记.txt');
      const second = await turn(server, 'cat 笔记.txt && echo 第二轮 >> 笔记.txt', 'chat-1');
      // The second turn read the file the first one wrote.
      expect(second.result?.output).toContain('第一轮');

      // Another thread, and a run on no thread, start with no files.
      const other = await turn(server, 'ls; cat 笔记.txt', 'chat-2');
      expect(other.result?.output).not.toContain('第一轮');
      expect(other.result?.output).toMatch(/No such file/);
      const alone = await turn(server, 'ls; cat 笔记.txt');
      expect(alone.thread).toBeUndefined();
      expect(alone.result?.output).toMatch(/No such file/);

      // A fork of the second turn at step 0 starts from the files the first turn left, in a copy.
      const forked = await fetch(`${server.url}/v1/runs/${second.id}/fork`, postJson({ fromStep: 0, wait: true }));
      const fork = (await forked.json()) as RunRecord;
      expect(fork.status).toBe('done');
      expect(fork.thread).toBeUndefined();
      expect(fork.result?.output).toContain('第一轮');
      expect(fork.result?.output).not.toContain('第二轮');
      // The thread's files are as its own turns left them: the fork's append is not there.
      const third = await turn(server, 'cat 笔记.txt', 'chat-1');
      expect(third.result?.output).toMatch(/stdout:\n第一轮\n第二轮$/);
      expect(third.result?.output).not.toContain('第二轮\n第二轮');
      if (kind === 'sandbox') {
        const folders = readdirSync(env.WS_DIR).filter((name) => !name.startsWith('.'));
        // chat-1, chat-2, the run on no thread and the fork: four folders.
        expect(folders.filter((name) => name.startsWith('thread-'))).toHaveLength(2);
        expect(folders).toContain(fork.id);
        expect(folders).toContain(alone.id);
        expect(folders).not.toContain(second.id);
      }

      // While a turn of chat-1 runs, a second start on chat-1 is refused with 409; chat-2 is free.
      const busy = (await (
        await fetch(
          `${server.url}/v1/agents/threaded/runs`,
          postJson({ input: 'GATED echo 忙 > busy.txt', threadId: 'chat-1' }),
        )
      ).json()) as RunRecord;
      await eventually(() => (existsSync(`${env.GATE_FILE}.waiting`) ? true : undefined), 60_000);
      const refused = await fetch(
        `${server.url}/v1/agents/threaded/runs`,
        postJson({ input: 'ls', threadId: 'chat-1' }),
      );
      expect(refused.status).toBe(409);
      const error = (await refused.json()).error;
      expect(error.message).toContain(`run "${busy.id}"`);
      expect(error.message).toContain('Thread "chat-1"');
      expect((await turn(server, 'ls', 'chat-2')).status).toBe('done');
      writeFileSync(env.GATE_FILE, '');
      expect((await ended(server, busy.id)).result?.output).toContain('busy.txt');
      const after = await turn(server, 'ls', 'chat-1');
      expect(after.result?.output).toContain('busy.txt');
      expect(after.result?.output).toContain('笔记.txt');

      // Two starts on a new thread at once: exactly one runs, the other is refused.
      rmSync(env.GATE_FILE);
      const racing = await Promise.all(
        [1, 2].map(() =>
          fetch(
            `${server.url}/v1/agents/threaded/runs`,
            postJson({ input: 'GATED echo 赛 > race.txt', threadId: 'chat-3' }),
          ),
        ),
      );
      expect(racing.map((r) => r.status).sort()).toEqual([202, 409]);
      const winner = (await racing.find((r) => r.status === 202)?.json()) as RunRecord;
      writeFileSync(env.GATE_FILE, '');
      expect((await ended(server, winner.id)).status).toBe('done');
    },
    300_000,
  );

  it.each(KINDS)(
    '%s: a turn killed with -9 between two commands resumes on the thread files of its last finished call',
    async (kind, can) => {
      if (!can) return;
      const { dir, env } = setup(kind);
      const first = await start(dir, env);
      await turn(first, 'echo 一 > one.txt', 'k');
      const created = await fetch(
        `${first.url}/v1/agents/threaded/runs`,
        postJson({ input: 'GATED echo 二 >> two.txt', threadId: 'k' }),
      );
      const { id } = (await created.json()) as RunRecord;
      await eventually(() => (existsSync(`${env.GATE_FILE}.waiting`) ? true : undefined), 60_000);
      await first.kill('SIGKILL');
      if (kind === 'sandbox') {
        // What a crashed call would leave behind in the thread's folder: the resumed run must not see it.
        const folder = readdirSync(env.WS_DIR).find((name) => name.startsWith('thread-'));
        expect(folder).toBeDefined();
        writeFileSync(join(env.WS_DIR, folder ?? '', 'junk.txt'), 'left by a crash');
      }

      writeFileSync(env.GATE_FILE, '');
      const second = await start(dir, env);
      const resumed = await ended(second, id);
      expect(resumed.status).toBe('done');
      // The resumed turn's second command saw the first turn's file and its own first command's, once.
      expect(resumed.result?.output).toContain('一\n二\n');
      expect(resumed.result?.output).not.toContain('二\n二');
      expect(resumed.result?.output).not.toContain('junk');
      const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());
      const commands = events.filter((e) => e.event === 'command_end').map((e) => JSON.parse(e.data).callId);
      expect(commands).toEqual(['t1', 't2']);
      // A new turn in the new process finds the thread's files (a memory one rebuilt from the thread's runs).
      const next = await turn(second, 'cat one.txt two.txt', 'k');
      expect(next.result?.output).toMatch(/stdout:\n一\n二$/);
    },
    300_000,
  );
});
