import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  graphPath,
  pathStates,
  resumeSchemaOf,
  summarize,
  type WorkflowRunView,
} from '../../src/studio/client/workflow-status.js';
import { createStep, createWorkflow, describeWorkflow } from '../../src/workflow/index.js';

const run = (fields: Partial<WorkflowRunView> = {}): WorkflowRunView => ({
  id: 'r1',
  workflow: 'w',
  status: 'running',
  steps: {},
  suspended: [],
  createdAt: 0,
  ...fields,
});

describe('the studio page’s workflow step statuses', () => {
  it('overlays the run’s own step events on its checkpoints, in order', () => {
    const states = pathStates(
      run({ steps: { '0.a': { status: 'done', output: 1 }, '1.b': { status: 'suspended' } } }),
      [
        { type: 'step_start', runId: 'r1', path: '1.b' },
        { type: 'step_start', runId: 'r1', path: '2.c[0]' },
        { type: 'step_end', runId: 'r1', path: '2.c[0]', ok: true, output: 'x' },
        { type: 'step_start', runId: 'r1', path: '2.c[1]' },
        { type: 'step_end', runId: 'r1', path: '2.c[1]', ok: false, error: 'boom' },
        // An agent's events inside a step: another run id, no path.
        { type: 'step_start', runId: 'r1:2.c[2]' },
        { type: 'step_start', runId: 'other', path: '3.d' },
      ],
    );
    expect(Object.fromEntries(states)).toEqual({
      '0.a': { status: 'done', output: 1 },
      '1.b': { status: 'running' },
      '2.c[0]': { status: 'done', output: 'x' },
      '2.c[1]': { status: 'failed', error: 'boom' },
    });
  });

  it('keeps a stored done over an older suspend event (an event wait has no event when resumed)', () => {
    const states = pathStates(run({ steps: { '0.event': { status: 'done', output: {} } } }), [
      { type: 'step_suspended', runId: 'r1', path: '0.event' },
    ]);
    expect(states.get('0.event')?.status).toBe('done');
  });

  it('sums up foreach items and a nested workflow’s steps into their graph step', () => {
    const states = pathStates(
      run({
        steps: {
          '1.docs[0]': { status: 'done' },
          '1.docs[1]': { status: 'done' },
          '2.sub/0.ask': { status: 'suspended' },
        },
      }),
      [{ type: 'step_start', runId: 'r1', path: '1.docs[2]' }],
    );
    expect(summarize('1.docs', states)).toMatchObject({ status: 'running', counts: { done: 2, running: 1 } });
    expect(summarize('1.docs', states).paths.map(([p]) => p)).toEqual(['1.docs[0]', '1.docs[1]', '1.docs[2]']);
    expect(summarize('2.sub', states).status).toBe('suspended');
    expect(summarize('2.sub/0.ask', states).status).toBe('suspended');
    expect(summarize('3.next', states)).toEqual({ status: 'pending', counts: {}, paths: [] });
    // A prefix of a step's path is another step.
    expect(summarize('1.doc', states).status).toBe('pending');
    expect(graphPath('2.sub[3]/0.loop#4')).toBe('2.sub/0.loop');
  });

  it('finds the resume schema of a suspended step or event, nested or a foreach item', () => {
    const ask = createStep({
      id: 'ask',
      input: z.string(),
      output: z.string(),
      resumeSchema: z.object({ answer: z.string() }),
      run: (x) => x,
    });
    const sub = createWorkflow({ id: 'sub', input: z.string(), output: z.string() }).then(ask).commit();
    const graph = describeWorkflow(
      createWorkflow({ id: 'w', input: z.array(z.string()), output: z.number() })
        .foreach(sub)
        .waitForEvent('go', z.object({ n: z.number() }))
        .then(createStep({ id: 'n', input: z.object({ n: z.number() }), output: z.number(), run: (x) => x.n }))
        .commit(),
    );
    expect(resumeSchemaOf(graph, { path: '0.sub[2]/0.ask' })).toMatchObject({
      schema: { properties: { answer: { type: 'string' } } },
    });
    expect(resumeSchemaOf(graph, { path: '1.event' })).toMatchObject({ schema: { properties: { n: {} } } });
    expect(resumeSchemaOf(graph, { path: '2.n' })).toBeUndefined();
  });
});
