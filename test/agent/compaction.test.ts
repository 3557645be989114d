import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type AgentOptions,
  type Checkpoint,
  contentText,
  defineTool,
  openaiCompatible,
  scriptedModel,
} from '../../src/index.js';
import { call } from './helpers.js';
import {
  type CountedRequest,
  DOCUMENTS,
  documentText,
  expectedSum,
  type FactPlace,
  type LongTaskServer,
  QUESTION,
  startLongTaskServer,
} from './long-task-server.js';

const BUDGET = 24_000;
let server: LongTaskServer;
beforeAll(async () => {
  server = await startLongTaskServer();
});
afterAll(() => server.close());

function readDocument(place: FactPlace) {
  return defineTool({
    name: 'read_document',
    description: 'Returns the text of one document.',
    input: z.object({ id: z.string() }),
    run: ({ id }) => documentText(Number(/doc-(\d+)/.exec(id)?.[1]), place),
  });
}

async function longRun(place: FactPlace, agentOptions: Partial<AgentOptions> = {}) {
  server.reset();
  const events: AgentEvent[] = [];
  const model = openaiCompatible({ baseURL: server.baseURL, apiKey: 'test', model: 'oracle' });
  const agent = new Agent({
    model,
    tools: [readDocument(place)],
    maxSteps: 200,
    context: { budgetTokens: BUDGET },
    ...agentOptions,
  });
  const result = await agent.run(QUESTION, { onEvent: (e) => events.push(e) });
  return { result, events, requests: server.requests.slice() };
}

/** Prompt tokens, and the cost: uncached tokens plus 10% of cached ones, as providers' prompt caches price them. */
function spend(requests: CountedRequest[]) {
  const prompt = requests.reduce((n, r) => n + r.promptTokens, 0);
  const cached = requests.reduce((n, r) => n + r.cachedTokens, 0);
  return { prompt, cost: prompt - cached + 0.1 * cached };
}

/** The steps whose prompt was compacted (a `context_compact` event before its model call). */
function compactedSteps(events: AgentEvent[]): Set<number> {
  return new Set(events.flatMap((e) => (e.type === 'context_compact' ? [e.step] : [])));
}

function clearEvents(events: AgentEvent[]) {
  return events.filter(
    (e): e is Extract<AgentEvent, { type: 'context_compact' }> => e.type === 'context_compact' && e.kind === 'clear',
  );
}

describe('compaction on a long run (60 documents of ~2,000 tokens with the fact in the middle, 24k budget)', () => {
  let run: Awaited<ReturnType<typeof longRun>>;
  let full: Awaited<ReturnType<typeof longRun>>;
  beforeAll(async () => {
    run = await longRun('middle');
    full = await longRun('middle', { context: { compaction: false } });
  }, 120_000);

  it('answers right, each document sent whole once (the window has room for it), at a fraction of the full history', () => {
    expect(run.result.status).toBe('done');
    expect(run.result.output).toContain(String(expectedSum()));
    const reads = run.result.steps.flatMap((s) => s.toolCalls).filter((c) => c.name === 'read_document');
    expect(reads).toHaveLength(DOCUMENTS);
    expect(reads.every((c) => c.full === undefined && c.output.includes('code is'))).toBe(true);
    // The run without compaction cuts every document (4,000 characters): the middle is lost.
    expect(full.result.output).not.toContain(String(expectedSum()));
    // Every prompt within the budget; clearing alone kept it there, and it is cheaper than sending everything.
    expect(Math.max(...run.requests.map((r) => r.promptTokens))).toBeLessThanOrEqual(BUDGET);
    const kinds = run.events.flatMap((e) => (e.type === 'context_compact' ? [e.kind] : []));
    expect(kinds.length).toBeGreaterThan(5);
    expect(kinds.every((k) => k === 'clear')).toBe(true);
    expect(run.result.stats.compactions).toBe(kinds.length);
    const [ours, theirs] = [spend(run.requests), spend(full.requests)];
    expect(ours.prompt / theirs.prompt).toBeLessThanOrEqual(0.3);
    expect(ours.cost / theirs.cost).toBeLessThanOrEqual(0.7);
    // The summaries' own calls (no tools) are not the run's model calls.
    const agentCalls = run.requests.filter((r) => r.tools.length > 0);
    expect(run.result.stats.cachedTokens).toBe(agentCalls.reduce((n, r) => n + r.cachedTokens, 0));
    expect(run.result.usage.cacheReadTokens).toBe(run.result.stats.cachedTokens);
  });

  it('clears every answered result in batches, keeping the assistant turns, and names the calls it cleared', () => {
    const clears = clearEvents(run.events);
    for (const c of clears) {
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
      expect(c.callIds.length).toBeGreaterThan(0);
    }
    const last = run.requests.at(-1)!.messages;
    const shown = clears.flatMap((c) => c.callIds).filter((id) => last.some((m) => m.tool_call_id === id));
    expect(shown.length).toBeGreaterThan(40);
    for (const id of shown) {
      const result = last.find((m) => m.role === 'tool' && m.tool_call_id === id);
      expect(result?.content).toBe(`[Result cleared to save context; recall_result {"callId":"${id}"} returns it.]`);
      // The model's own turn that made the call stays as it was.
      const turn = last.find((m) => m.tool_calls?.some((c) => c.id === id));
      expect(turn?.content ?? '').toMatch(/^(Noted: doc-\d+ code is \d+\.)?$/);
    }
    // After a clear, only the newest step (the result the model has not answered yet) is still whole.
    for (const step of compactedSteps(run.events)) {
      const sent = run.requests[step].messages.filter((m) => m.role === 'tool');
      expect(sent.filter((m) => !String(m.content).startsWith('[Result cleared'))).toHaveLength(1);
    }
  });

  it('between compactions, each request is the previous one plus new messages, byte for byte', () => {
    const compacted = compactedSteps(run.events);
    const requests = run.requests.filter((r) => r.tools.length > 0);
    let toolChanges = 0;
    let extended = 0;
    for (let i = 1; i < requests.length; i++) {
      const [before, now] = [requests[i - 1], requests[i]];
      if (now.tools.join() !== before.tools.join()) toolChanges++;
      if (compacted.has(i)) continue;
      expect(startsWith(now, before), `request ${i} rewrote the one before`).toBe(true);
      extended++;
    }
    // Compactions are batches: most requests only extend the one before.
    expect(extended).toBeGreaterThan(requests.length * 0.75);
    // The tools change once: recall_result joins with the first clear.
    expect(toolChanges).toBe(1);
  });
});

describe('a long run whose results are cut (observationLimit: 4000)', () => {
  let run: Awaited<ReturnType<typeof longRun>>;
  beforeAll(async () => {
    run = await longRun('middle', { observationLimit: 4000 });
  }, 120_000);

  it('answers right through recall_result, which returns the part the cut marker names, not the whole again', () => {
    expect(run.result.status).toBe('done');
    expect(run.result.output).toContain(String(expectedSum()));
    const calls = run.result.steps.flatMap((s) => s.toolCalls);
    const recalls = calls.filter((c) => c.name === 'recall_result');
    expect(recalls).toHaveLength(DOCUMENTS);
    for (const recall of recalls) {
      const { callId, offset } = recall.input as { callId: string; offset: number };
      const cut = calls.find((c) => c.id === callId)!;
      expect(cut.output).toContain(
        `characters cut; recall_result {"callId":"${callId}","offset":${offset}} returns them`,
      );
      expect(cut.full!.slice(0, offset)).toBe(cut.output.slice(0, offset));
      expect(recall.ok && recall.output.includes('code is')).toBe(true);
      expect(recall.output).toMatch(/^\[Characters [\d,]+ to [\d,]+ of [\d,]+/);
      expect(recall.output.length).toBeLessThan(4200);
    }
    expect(Math.max(...run.requests.map((r) => r.promptTokens))).toBeLessThanOrEqual(BUDGET);
  });
});

function startsWith(now: CountedRequest, before: CountedRequest): boolean {
  const a = JSON.stringify(before.messages).slice(0, -1);
  return JSON.stringify(now.messages).startsWith(a);
}

describe('recall_result', () => {
  const page = (n: number) =>
    `page ${n} start. ${'filler text '.repeat(600)} the secret middle of page ${n}. ${'more filler '.repeat(600)}`;
  const fetchPage = defineTool({
    name: 'fetch_page',
    description: 'Fetches a page.',
    input: z.object({ n: z.number() }),
    run: ({ n }) => page(n),
  });

  it('is offered only once a result was cut, and the cut marker names it with the call id', async () => {
    const model = scriptedModel([
      call('fetch_page', { n: 1 }, 'c1'),
      call('recall_result', { callId: 'c1' }, 'c2'),
      'done',
    ]);
    const result = await new Agent({ model, tools: [fetchPage] }).run('read page 1');
    expect(model.calls[0].tools?.map((t) => t.name)).toEqual(['fetch_page']);
    expect(model.calls[1].tools?.map((t) => t.name)).toEqual(['fetch_page', 'recall_result']);
    const cut = result.steps[0].toolCalls[0];
    const offset = Number(/"offset":(\d+)/.exec(cut.output)?.[1]);
    expect(cut.output).toContain(`characters cut; recall_result {"callId":"c1","offset":${offset}} returns them`);
    expect(cut.output).not.toContain('secret middle');
    expect(cut.full).toBe(page(1));
    // Without an offset, the first page (the run's result limit, 4,000 characters), naming the next one.
    const first = result.steps[1].toolCalls[0].output;
    expect(first).toContain(
      `[Characters 0 to 4,000 of ${page(1).length.toLocaleString('en-US')}; recall_result {"callId":"c1","offset":4000} returns the next part.]`,
    );
    expect(first.endsWith(page(1).slice(0, 4000))).toBe(true);
  });

  it('pages from the offset the cut marker names, to the end', async () => {
    const replies = [
      call('fetch_page', { n: 1 }, 'c1'),
      undefined, // the call the cut marker names
      undefined, // the call the first page names for the next part
      call('recall_result', { callId: 'c1', offset: 12_000 }, 'c3'),
      call('recall_result', { callId: 'c1', offset: 99_999 }, 'c4'),
      'done',
    ];
    const model = scriptedModel((request, i) => {
      if (replies[i] !== undefined) return replies[i];
      const marker = /recall_result (\{[^}]*\})/.exec(contentText(request.messages.at(-1)!.content))![1];
      return call('recall_result', JSON.parse(marker), 'c2');
    });
    const result = await new Agent({ model, tools: [fetchPage] }).run('read page 1');
    const [first, middle, end, past] = result.steps.slice(1, 5).map((s) => s.toolCalls[0]);
    expect(first.input).toEqual({ callId: 'c1', offset: 2345 });
    expect(first.output).toContain('[Characters 2,345 to 6,345 of 14,444; recall_result {"callId":"c1","offset":6345}');
    expect(middle.output).toContain('the secret middle of page 1');
    const text = page(1);
    expect(end.output).toBe(
      `[Characters 12,000 to ${text.length.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')}.]\n${text.slice(12_000)}`,
    );
    expect(past.ok).toBe(false);
    expect(past.output).toContain('offset 99999 is past its end');
  });

  it('brings a result back after a resume and in a fork, from the checkpointed steps', async () => {
    const checkpoints: Checkpoint[] = [];
    const first = scriptedModel([call('fetch_page', { n: 2 }, 'c1'), 'stop here']);
    const agent = new Agent({ model: first, tools: [fetchPage] });
    await agent.run('read page 2', { onCheckpoint: (c) => void checkpoints.push(structuredClone(c)) });
    const saved = JSON.parse(JSON.stringify(checkpoints.at(-1))) as Checkpoint;
    for (const resume of [saved, undefined]) {
      const model = scriptedModel([call('recall_result', { callId: 'c1' }, 'c9'), 'done']);
      const again = new Agent({ model, tools: [fetchPage] });
      const result = resume
        ? await again.run('read page 2', { resume: { ...saved, final: undefined, steps: saved.steps.slice(0, 1) } })
        : await again.fork(saved, { fromStep: 1 });
      expect(contentText(model.calls[1].messages.at(-1)!.content)).toContain('page 2 start.');
      expect(result.steps.at(-2)?.toolCalls[0].output.endsWith(page(2).slice(0, 4000))).toBe(true);
    }
  });

  it('says which ids exist when asked for an unknown call', async () => {
    const model = scriptedModel([
      call('fetch_page', { n: 3 }, 'c1'),
      call('recall_result', { callId: 'nope' }, 'c2'),
      'done',
    ]);
    const result = await new Agent({ model, tools: [fetchPage] }).run('read page 3');
    expect(result.steps[1].toolCalls[0].ok).toBe(false);
    expect(result.steps[1].toolCalls[0].output).toContain('No earlier call has the id "nope"');
  });
});

describe('context: { compaction: false }', () => {
  it('sends the full history every call, offers no recall_result and names it nowhere', async () => {
    const big = defineTool({
      name: 'big',
      description: 'A big result.',
      input: z.object({ i: z.number() }),
      run: ({ i }) => `result ${i} ${'word '.repeat(1500)}`,
    });
    const replies = Array.from({ length: 12 }, (_, i) => call('big', { i }, `c${i}`));
    const model = scriptedModel(() => replies.shift() ?? 'done', { contextWindow: 8_000 });
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [big], maxSteps: 20, context: { compaction: false } }).run('go', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    const last = model.calls.at(-1)!;
    const results = last.messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(12);
    expect(results.map((m) => m.content)).toEqual(result.steps.slice(0, 12).map((s) => s.toolCalls[0].output));
    expect(model.calls.every((c) => c.tools?.every((t) => t.name === 'big'))).toBe(true);
    expect(events.some((e) => e.type === 'context_compact' || e.type === 'context_summary')).toBe(false);
    expect(JSON.stringify(result.steps)).not.toContain('recall_result');
    for (let i = 1; i < model.calls.length; i++) {
      const before = JSON.stringify(model.calls[i - 1].messages).slice(0, -1);
      expect(JSON.stringify(model.calls[i].messages).startsWith(before)).toBe(true);
    }
  });
});
