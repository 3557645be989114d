import type { RunError, RunStatus, Step } from '../core/index.js';
import { truncateObservation } from '../tools/index.js';
import type { MemoryHit, MemoryInput, MemoryKind, MemoryStore } from './memory-store.js';

export interface RecallOptions {
  /** How many memories go into the prompt. Default 5. */
  k?: number;
  kinds?: MemoryKind[];
  tags?: string[];
  /** Characters per memory in the block. Default 500. */
  maxChars?: number;
  signal?: AbortSignal;
}

/** A prompt section of recalled memories (empty when none), and the hits it was built from. */
export interface Recall {
  block: string;
  memories: MemoryHit[];
}

/**
 * Finds the top-k memories for a question and renders them as a prompt section. The loop puts
 * `block` into the prompt before the run and emits `memory_recall` from `memories`
 * (`{ id: m.memory.id, kind: m.memory.kind, text: m.memory.text, score: m.score }`).
 *
 * @example
 * const { block, memories } = await recallMemories(store, 'What units does the user want?', { k: 3 });
 */
export async function recallMemories(
  store: MemoryStore,
  question: string,
  options: RecallOptions = {},
): Promise<Recall> {
  const { k = 5, kinds, tags, signal, maxChars = 500 } = options;
  const memories = await store.search(question, { k, kinds, tags, signal });
  if (memories.length === 0) return { block: '', memories };
  const lines = memories.map(({ memory }) => {
    const text = truncateObservation(memory.text.replace(/\s+/g, ' ').trim(), maxChars);
    return `- [${memory.kind}] ${text}${memory.tags.length ? ` (tags: ${memory.tags.join(', ')})` : ''}`;
  });
  return {
    block: `Relevant memories from earlier runs (they may be outdated; check them when it matters):\n${lines.join('\n')}`,
    memories,
  };
}

/** What the memory helpers read from a finished run (a `RunResult` has all of it). */
export interface RunSummaryInput {
  input: string;
  output: string;
  status: RunStatus;
  steps: readonly Step[];
  error?: RunError;
}

function toolsUsed(steps: readonly Step[]) {
  const used = new Set<string>();
  const failed: string[] = [];
  for (const step of steps) {
    for (const call of step.toolCalls) {
      used.add(call.tool ?? call.name);
      if (!call.ok) failed.push(`${call.tool ?? call.name}: ${truncateObservation(call.error ?? call.output, 160)}`);
    }
  }
  return { used: [...used], failed };
}

/**
 * The episode to store after a run: the task, the outcome and the tools used.
 *
 * @example
 * const result = await agent.run(question);
 * if (result.status === 'done') await store.add(episodeFromRun({ input: question, ...result }));
 */
export function episodeFromRun(run: RunSummaryInput): MemoryInput {
  const { used, failed } = toolsUsed(run.steps);
  const lines = [
    `Task: ${truncateObservation(run.input.trim(), 400)}`,
    `Outcome: ${run.status}. Answer: ${truncateObservation(run.output.trim() || '(none)', 600)}`,
    `Steps: ${run.steps.length}${used.length ? `; tools used: ${used.join(', ')}` : ''}${failed.length ? `; ${failed.length} tool calls failed` : ''}.`,
  ];
  return {
    kind: 'episode',
    text: lines.join('\n'),
    tags: [`status:${run.status}`, ...used.map((t) => `tool:${t}`)],
    metadata: { status: run.status, steps: run.steps.length, tools: used },
  };
}

const LESSONS: Partial<Record<RunStatus, string>> = {
  max_steps: 'Next time, split the task, or answer with what was found before running out of steps.',
  loop_detected: 'Next time, do not repeat the same call: change the input or the approach.',
  budget_exceeded: 'Next time, use fewer and more targeted calls.',
  failed: 'Next time, check the tool inputs and follow the answer format exactly.',
};

/**
 * A reflection (a lesson) from a run that did not end `done`; `undefined` for finished or aborted
 * runs, which teach nothing. A model can write a better lesson: this template is the default.
 */
export function reflectionFromRun(run: RunSummaryInput): MemoryInput | undefined {
  const lesson = LESSONS[run.status];
  if (!lesson) return undefined;
  const { used, failed } = toolsUsed(run.steps);
  const invalid = run.steps
    .filter((s) => s.kind === 'invalid')
    .map((s) => s.invalidReason)
    .filter(Boolean);
  const lines = [
    `Lesson from a task that ended ${run.status}: ${truncateObservation(run.input.trim(), 300)}`,
    ...(run.error ? [`Why: ${truncateObservation(run.error.message, 300)}`] : []),
    ...(failed.length ? [`Failed tool calls: ${failed.slice(0, 3).join('; ')}`] : []),
    ...(invalid.length
      ? [`Unreadable replies: ${invalid.length} (e.g. ${truncateObservation(invalid[0]!, 160)})`]
      : []),
    lesson,
  ];
  return {
    kind: 'reflection',
    text: lines.join('\n'),
    tags: [`status:${run.status}`, ...used.map((t) => `tool:${t}`)],
    metadata: { status: run.status, steps: run.steps.length, tools: used },
  };
}
