/**
 * Bytes the SQLite run store keeps per run, for a 5-step and a 30-step run over a 4k-token context
 * (a ~16 KB document in the question, ~600-character tool results). Compares the model_request events
 * stored whole (as before) with the compact ones (only what is new since the run's previous request),
 * and the whole file per run with what the run itself says: its distinct messages and the model's outputs.
 *
 *   node --import tsx bench/run-storage.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import type { AgentEvent } from '../src/core/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { createApp, SqliteRunStore } from '../src/server/index.js';
import { defineTool } from '../src/tools/index.js';

const RUNS = 40;
const DOCUMENT = Array.from({ length: 400 }, (_, i) => `Line ${i}: the quarterly figures for region ${i % 17}.`).join(
  '\n',
);

function agent(steps: number) {
  let done = 0;
  return new Agent({
    model: scriptedModel(() => {
      done += 1;
      if (done >= steps) return 'The figures are summarised above: growth in all regions.';
      return {
        text: `I will look up part ${done}.`,
        toolCalls: [{ id: `c${done}`, name: 'lookup', arguments: JSON.stringify({ part: done }) }],
      };
    }),
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Looks up one part of the report.',
        input: z.object({ part: z.number() }),
        run: ({ part }) => `Part ${part}: ${'revenue rose in the north and fell slightly in the south. '.repeat(10)}`,
      }),
    ],
    maxSteps: steps + 2,
  });
}

async function measure(steps: number) {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-storage-'));
  const path = join(dir, 'runs.db');
  const store = new SqliteRunStore({ path });
  const app = createApp({ agents: { a: () => agent(steps) }, store });
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const response = await app.fetch(
      new Request('http://x/v1/agents/a/runs?wait=true', {
        method: 'POST',
        body: JSON.stringify({ input: `Summarise this report:\n${DOCUMENT}` }),
      }),
    );
    ids.push(((await response.json()) as { id: string }).id);
  }
  let wholeRequests = 0;
  let content = 0;
  for (const id of ids) {
    const events = (await store.readEvents(id, 0, 100_000)).map((e) => e.event);
    const messages = new Set<string>();
    for (const event of events) {
      if (event.type === 'model_request') {
        wholeRequests += JSON.stringify(event).length;
        for (const message of event.messages) messages.add(JSON.stringify(message));
      }
      if (event.type === 'model_response') content += JSON.stringify(event.text).length;
    }
    for (const message of messages) content += message.length;
  }
  await app.runs.close();
  await store.close();
  const db = new Database(path, { readonly: true });
  let storedRequests = 0;
  let storedEvents = 0;
  for (const row of db.prepare('SELECT events FROM run_event_blocks').all() as { events: string }[]) {
    storedEvents += row.events.length;
    for (const event of JSON.parse(row.events) as AgentEvent[])
      if (event.type === 'model_request') storedRequests += JSON.stringify(event).length;
  }
  const used =
    (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const fileBytes = used * (db.pragma('page_size', { simple: true }) as number);
  db.close();
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(path);
  const perRun = (n: number) => Math.round(n / RUNS);
  return {
    steps,
    contentPerRun: perRun(content),
    eventsWholePerRun: perRun(storedEvents - storedRequests + wholeRequests),
    eventsCompactPerRun: perRun(storedEvents),
    filePerRun: perRun(fileBytes),
    fileOverContent: fileBytes / content,
    fileBeforePerRun: perRun(fileBytes - storedRequests + wholeRequests),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`run storage, SQLite, ${RUNS} runs each, ~4k-token context`);
for (const steps of [5, 30]) {
  const m = await measure(steps);
  console.log(
    `${String(steps).padStart(2)} steps: content ${kb(m.contentPerRun)}/run | events whole ${kb(m.eventsWholePerRun)} → compact ${kb(m.eventsCompactPerRun)} | ` +
      `file ${kb(m.filePerRun)}/run (${kb(m.fileBeforePerRun)} with requests stored whole), ${m.fileOverContent.toFixed(2)}× content`,
  );
}
