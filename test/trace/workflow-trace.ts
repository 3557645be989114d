// A real workflow run for the trace views: classify → parallel [lookup, draft (an agent)] → review
// (suspends; resumed in a second pass) → notify (a nested workflow: channels → foreach send).
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { agentStep, createStep, createWorkflow, memoryWorkflowStore } from '../../src/entries/workflow.js';
import { Agent, type AgentEvent, calculatorTool, scriptedModel } from '../../src/index.js';

export interface WorkflowTraceOptions {
  /** The `send` step throws for this channel, so the second pass fails. */
  failChannel?: string;
  /** Secret text the agent's reply carries (to check redaction). */
  replyText?: string;
}

/** Builds the workflow; the agent's model is scripted: a calculator call, then the draft. */
export function triageWorkflow(options: WorkflowTraceOptions = {}) {
  const classify = createStep({
    id: 'classify',
    input: z.string(),
    output: z.string(),
    run: (text) => (text.includes('down') ? 'outage' : 'question'),
  });
  const lookup = createStep({
    id: 'lookup',
    input: z.string(),
    output: z.object({ page: z.string() }),
    run: async (kind) => {
      await sleep(30);
      return { page: `runbook/${kind}` };
    },
  });
  const model = scriptedModel([
    {
      text: '',
      toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
      usage: { promptTokens: 40, completionTokens: 8 },
    },
    { text: options.replyText ?? 'We are on it: 42 engineers.', usage: { promptTokens: 60, completionTokens: 12 } },
  ]);
  const writer = new Agent({ name: 'writer', model, tools: [calculatorTool] });
  const draft = agentStep(writer, { id: 'draft', prompt: (kind: string) => `Write a status note for an ${kind}.` });
  const review = createStep({
    id: 'review',
    input: z.object({ lookup: z.object({ page: z.string() }), draft: z.unknown() }),
    output: z.string(),
    resumeSchema: z.object({ approved: z.boolean() }),
    run: (merged, ctx) =>
      ctx.resumeData
        ? ctx.resumeData.approved
          ? String(merged.draft)
          : 'rejected'
        : ctx.suspend({ draft: merged.draft, page: merged.lookup.page }),
  });
  const channels = createStep({
    id: 'channels',
    input: z.string(),
    output: z.array(z.string()),
    run: () => ['email', 'chat', 'pager'],
  });
  const send = createStep({
    id: 'send',
    input: z.string(),
    output: z.string(),
    run: async (channel) => {
      await sleep(5);
      if (channel === options.failChannel) throw new Error(`${channel} gateway refused the message`);
      return `sent to ${channel}`;
    },
  });
  const notify = createWorkflow({ id: 'notify', input: z.string(), output: z.array(z.string()) })
    .then(channels)
    .foreach(send, { concurrency: 2 })
    .commit();
  return createWorkflow({ id: 'triage', input: z.string(), output: z.array(z.string()) })
    .then(classify)
    .parallel([lookup, draft])
    .then(review)
    .then(notify)
    .commit();
}

/** Runs the workflow to its suspension, resumes it, and returns every event of both passes. */
export async function workflowTrace(options: WorkflowTraceOptions = {}): Promise<{
  events: AgentEvent[];
  runId: string;
  firstPass: AgentEvent[];
}> {
  const flow = triageWorkflow(options);
  const store = memoryWorkflowStore();
  const events: AgentEvent[] = [];
  const onEvent = (e: AgentEvent) => events.push(e);
  const first = await flow.run('The site is down', { store, onEvent });
  if (first.status !== 'suspended') throw new Error(`the first pass ended ${first.status}`);
  const firstPass = [...events];
  await flow.resume(first.runId, { step: 'review', payload: { approved: true } }, { store, onEvent });
  return { events, runId: first.runId, firstPass };
}
