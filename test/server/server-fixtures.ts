import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { type ScriptedReply, scriptedModel } from '../../src/llm/index.js';
import { createApp, type ServerLimits, SqliteRunStore } from '../../src/server/index.js';
import { type AnyTool, defineTool } from '../../src/tools/index.js';

/** A tool that echoes its text, counting calls. */
export function echoTool(counter?: { calls: number }): AnyTool {
  return defineTool({
    name: 'echo',
    description: 'Echoes the text.',
    input: z.object({ text: z.string() }),
    run: ({ text }) => {
      if (counter) counter.calls += 1;
      return `echo: ${text}`;
    },
  });
}

/** A reply calling `tool` once with `{ text }`. */
export function callReply(id: string, tool: string, input: Record<string, unknown>): ScriptedReply {
  return { text: '', toolCalls: [{ id, name: tool, arguments: JSON.stringify(input) }] };
}

/** A factory of agents that call `echo` `toolSteps` times, then answer `answer`: a fresh model per run. */
export function stepsAgent(
  options: { toolSteps?: number; answer?: string; counter?: { calls: number }; delayMs?: number } = {},
) {
  const toolSteps = options.toolSteps ?? 4;
  return () =>
    new Agent({
      name: 'steps',
      model: scriptedModel(
        // Scripted by the tool results so far, so a run resumed with a fresh model goes on where it was.
        (request) => {
          const done = request.messages.filter((m) => m.role === 'tool').length;
          return done < toolSteps
            ? callReply(`c${done}`, 'echo', { text: `step ${done}` })
            : (options.answer ?? 'All done.');
        },
        { delayMs: options.delayMs },
      ),
      tools: [echoTool(options.counter)],
    });
}

/** A temp dir removed by `cleanup`. */
/** The non-empty lines of a file a child process appends to (a JSONL log); none while it does not exist yet. */
export function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

export function tempDir(): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'thinkflow-server-'));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** An embedded app over a fresh SQLite store in a temp dir. */
export function embeddedApp(options: {
  agents: Parameters<typeof createApp>[0]['agents'] & object;
  tokens?: string[];
  limits?: ServerLimits;
  hooks?: Parameters<typeof createApp>[0]['hooks'];
}) {
  const dir = tempDir();
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const app = createApp({
    agents: options.agents,
    store,
    auth: { tokens: options.tokens },
    limits: options.limits,
    hooks: options.hooks,
  });
  return {
    app,
    store,
    request: (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://localhost${path}`, init)),
    async close() {
      await app.runs.close({ timeoutMs: 1000 });
      await store.close();
      dir.cleanup();
    },
  };
}

/** JSON POST options. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
}

/** Parses an SSE body into events with their ids. */
export function parseSse(text: string): { id?: string; event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const out: { id?: string; event?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (field === 'id') out.id = value;
        else if (field === 'event') out.event = value;
        else if (field === 'data') out.data += value;
      }
      return out;
    });
}
