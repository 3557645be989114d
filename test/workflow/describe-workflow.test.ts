import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createStep,
  createWorkflow,
  describeWorkflow,
  type GraphNode,
  type GraphStep,
  memoryWorkflowStore,
  type WorkflowGraph,
} from '../../src/workflow/index.js';

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

const fetchDocs = createStep({
  id: 'fetch',
  input: z.object({ topic: z.string(), limit: z.number().int().default(3) }),
  output: z.array(z.string()),
  run: ({ topic, limit }) => Array.from({ length: limit }, (_, i) => `${topic} ${i}`),
});
const summarize = createStep({
  id: 'summarize',
  input: z.string(),
  output: z.string(),
  run: (doc) => doc.toUpperCase(),
});
const count = createStep({ id: 'count', input: z.array(z.string()), output: z.number(), run: (docs) => docs.length });
const words = createStep({
  id: 'words',
  input: z.array(z.string()),
  output: z.number(),
  run: (docs) => docs.join(' ').split(' ').length,
});
const grow = createStep({
  id: 'grow',
  input: z.object({ count: z.number() }),
  output: z.number(),
  run: (x) => x.count,
});
const counter = z.object({ grow: z.number() });
const pick = createStep({
  id: 'pick',
  input: z.object({ grow: z.number().optional(), huge: z.number().optional() }),
  output: counter,
  run: (x) => ({ grow: x.grow ?? x.huge ?? 0 }),
});
const bump = createStep({ id: 'bump', input: counter, output: counter, run: ({ grow }) => ({ grow: grow + 1 }) });
const review = createStep({
  id: 'review',
  input: counter,
  output: z.object({ n: z.number() }),
  resumeSchema: z.object({ approved: z.boolean(), note: z.string().optional(), level: z.enum(['low', 'high']) }),
  run: ({ grow }, ctx) => (ctx.resumeData ? { n: grow } : ctx.suspend({ asks: grow })),
});
const inner = createWorkflow({ id: 'inner', input: z.object({ n: z.number() }), output: z.number() })
  .then(createStep({ id: 'unwrap', input: z.object({ n: z.number() }), output: z.number(), run: (x) => x.n }))
  .commit();

/** Every kind of node: step, foreach, parallel, branch, loop, sleep, a nested workflow and an event. */
const flow = createWorkflow({ id: 'docs', input: fetchDocs.input, output: z.object({ email: z.string() }) })
  .then(fetchDocs)
  .foreach(summarize, { concurrency: 4 })
  .parallel([count, words])
  .branch([
    [(x) => x.count > 100, createStep({ id: 'huge', input: z.unknown(), output: z.number(), run: () => 0 })],
    [() => true, grow],
  ])
  .then(pick)
  .dountil(bump, (x) => x.grow >= 5, { maxIterations: 10 })
  .sleep(5)
  .sleepUntil(new Date('2026-01-01T00:00:00.000Z'))
  .then(review)
  .then(inner)
  .waitForEvent('confirmed', z.object({ email: z.string() }))
  .commit();

const steps = (graph: WorkflowGraph): GraphStep[] =>
  graph.nodes.flatMap((node: GraphNode) => {
    const own = 'steps' in node ? node.steps : 'step' in node ? [node.step] : [];
    return own.flatMap((step) => [step, ...(step.workflow ? steps(step.workflow) : [])]);
  });

describe('describeWorkflow', () => {
  const graph = describeWorkflow(flow);

  it('names each node by kind and index, with the checkpoint path of each step', () => {
    expect(graph.id).toBe('docs');
    expect(graph.nodes.map((node) => [node.type, node.at])).toEqual([
      ['step', '0'],
      ['foreach', '1'],
      ['parallel', '2'],
      ['branch', '3'],
      ['step', '4'],
      ['loop', '5'],
      ['sleep', '6'],
      ['sleep', '7'],
      ['step', '8'],
      ['step', '9'],
      ['event', '10'],
    ]);
    expect(steps(graph).map((step) => step.path)).toEqual([
      '0.fetch',
      '1.summarize',
      '2.count',
      '2.words',
      '3.huge',
      '3.grow',
      '4.pick',
      '5.bump',
      '8.review',
      '9.inner',
      '9.inner/0.unwrap',
    ]);
  });

  it('keeps foreach concurrency, the loop kind, sleep times and the event name', () => {
    expect(graph.nodes[1]).toMatchObject({ type: 'foreach', concurrency: 4 });
    expect(graph.nodes[5]).toMatchObject({ type: 'loop', loop: 'dountil', maxIterations: 10 });
    expect(graph.nodes[6]).toEqual({ type: 'sleep', at: '6', path: '6.sleep', ms: 5 });
    expect(graph.nodes[7]).toEqual({ type: 'sleep', at: '7', path: '7.sleep', until: '2026-01-01T00:00:00.000Z' });
    expect(graph.nodes[10]).toEqual({
      type: 'event',
      at: '10',
      path: '10.event',
      event: 'confirmed',
      payload: {
        schema: {
          $schema: SCHEMA,
          type: 'object',
          properties: { email: { type: 'string' } },
          required: ['email'],
        },
      },
    });
    const dowhile = describeWorkflow(
      createWorkflow({ id: 'w', input: counter, output: counter })
        .dowhile(bump, (x) => x.grow < 3)
        .commit(),
    );
    expect(dowhile.nodes[0]).toMatchObject({ type: 'loop', loop: 'dowhile', maxIterations: 100 });
  });

  it('gives the JSON Schema of the workflow input, each step input and each resume payload', () => {
    expect(graph.input).toEqual({
      schema: {
        $schema: SCHEMA,
        type: 'object',
        properties: {
          topic: { type: 'string' },
          limit: { type: 'integer', default: 3, minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        },
        required: ['topic'],
      },
    });
    const review = steps(graph).find((step) => step.id === 'review')!;
    expect(review.input).toEqual({
      schema: { $schema: SCHEMA, type: 'object', properties: { grow: { type: 'number' } }, required: ['grow'] },
    });
    expect(review.resume).toEqual({
      schema: {
        $schema: SCHEMA,
        type: 'object',
        properties: {
          approved: { type: 'boolean' },
          note: { type: 'string' },
          level: { type: 'string', enum: ['low', 'high'] },
        },
        required: ['approved', 'level'],
      },
    });
    expect(
      steps(graph)
        .filter((step) => step.resume)
        .map((step) => step.id),
    ).toEqual(['review']);
  });

  it('draws a nested workflow inline, its paths under the step’s', () => {
    const nested = graph.nodes[9] as Extract<GraphNode, { type: 'step' }>;
    expect(nested.step.workflow).toMatchObject({
      id: 'inner',
      nodes: [{ type: 'step', at: '9.inner/0', step: { id: 'unwrap', path: '9.inner/0.unwrap' } }],
    });
  });

  it('says why a schema has no JSON Schema instead of throwing', () => {
    const dated = createWorkflow({ id: 'dated', input: z.object({ when: z.date() }), output: z.unknown() })
      .then(
        createStep({
          id: 'pick',
          input: z.object({ when: z.date() }),
          output: z.unknown(),
          resumeSchema: z.custom<string>((x) => typeof x === 'string'),
          run: (x) => x,
        }),
      )
      .waitForEvent('tick', z.bigint())
      .commit();
    const described = describeWorkflow(dated);
    expect(described.input).toEqual({ error: expect.stringMatching(/^no JSON Schema: Date cannot be represented/) });
    expect((described.nodes[0] as Extract<GraphNode, { type: 'step' }>).step.resume).toEqual({
      error: expect.stringMatching(/Custom types cannot be represented/),
    });
    expect((described.nodes[1] as Extract<GraphNode, { type: 'event' }>).payload).toEqual({
      error: expect.stringMatching(/BigInt/),
    });
  });

  it('is plain JSON: it survives a round trip through JSON.stringify', () => {
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });

  it('uses the paths a real run checkpoints: each step record of a run finds its graph step', async () => {
    const store = memoryWorkflowStore();
    const first = await flow.run({ topic: 'cats', limit: 3 }, { store });
    expect(first.status).toBe('suspended');
    expect(first.suspended.map((s) => s.path)).toEqual(['8.review']);
    await flow.resume(first.runId, { step: '8.review', payload: { approved: true, level: 'low' } }, { store });
    const done = await flow.resume(first.runId, { event: 'confirmed', payload: { email: 'a@example.com' } }, { store });
    expect(done.status).toBe('done');
    const known = new Set([
      ...steps(graph).map((step) => step.path),
      ...graph.nodes.flatMap((node) => ('path' in node ? [node.path] : [])),
    ]);
    const paths = Object.keys(done.steps);
    expect(paths).toContain('1.summarize[2]');
    expect(paths).toContain('5.bump#0');
    expect(paths).toContain('9.inner/0.unwrap');
    // What the page does to find a checkpoint's node: take off the foreach item and the loop iteration.
    for (const path of paths) expect(known, path).toContain(path.replace(/\[\d+\]|#\d+/g, ''));
  });
});
