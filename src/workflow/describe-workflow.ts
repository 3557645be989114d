import { z } from 'zod';
import type { JsonSchema } from '../core/index.js';
import type { AnyStep, WorkflowNode, WorkflowShape } from './workflow-types.js';

/**
 * A zod schema as JSON Schema, or why it has none (a `z.date()`, a `z.custom()`, a bigint): a form then
 * falls back to a JSON text field, and the server's own zod check still decides.
 */
export type SchemaView = { schema: JsonSchema } | { error: string };

/** A step as the graph shows it. */
export interface GraphStep {
  id: string;
  /**
   * Its checkpoint path (`0.fetch`, `1.sub/0.inner`). A foreach item adds `[i]` and a loop iteration `#n`
   * (`2.docs[3]`, `1.poll#0`); taking those off gives this path again.
   */
  path: string;
  /** What the step takes (the JSON it can be started or forked with). */
  input: SchemaView;
  /** The payload a resume must carry when the step suspends itself (`createStep({ resumeSchema })`). */
  resume?: SchemaView;
  /** Set when the step is another workflow: its nodes, whose paths start with `path/`. */
  workflow?: WorkflowGraph;
}

/** One node of the graph: what `.then`, `.parallel`, ... appended, at index `at` (`2`, `1.sub/0`). */
export type GraphNode =
  | { type: 'step'; at: string; step: GraphStep }
  | { type: 'parallel'; at: string; steps: GraphStep[] }
  | { type: 'branch'; at: string; steps: GraphStep[] }
  | { type: 'foreach'; at: string; step: GraphStep; concurrency: number }
  | { type: 'loop'; at: string; step: GraphStep; loop: 'dowhile' | 'dountil'; maxIterations: number }
  /** `ms` for `.sleep(ms)`, `until` (ISO time) for `.sleepUntil(date)`; neither when the date is computed. */
  | { type: 'sleep'; at: string; path: string; ms?: number; until?: string }
  /** `.waitForEvent(event, schema)`: `payload` is what a resume with `{ event }` must carry. */
  | { type: 'event'; at: string; path: string; event: string; payload: SchemaView };

/** A committed workflow as JSON: what Studio draws, and what `GET /v1/workflows/:name` answers. */
export interface WorkflowGraph {
  id: string;
  input: SchemaView;
  nodes: GraphNode[];
}

/**
 * Describes a workflow's shape as a JSON graph: every node with its kind and the checkpoint paths its
 * steps use (so a run's `steps` and its events' `path` find their node), nested workflows inline, and
 * the JSON Schema of each input and of each payload a resume carries. Pure: it runs no step.
 * @example
 * const graph = describeWorkflow(flow);
 * graph.nodes[1]; // { type: 'step', at: '1', step: { id: 'review', path: '1.review', input, resume } }
 */
export function describeWorkflow(shape: WorkflowShape): WorkflowGraph {
  return describeAt(shape, '');
}

function describeAt(shape: WorkflowShape, prefix: string): WorkflowGraph {
  return {
    id: shape.id,
    input: toSchemaView(shape.input),
    nodes: shape.nodes.map((node, index) => describeNode(node, `${prefix}${index}`)),
  };
}

function describeNode(node: WorkflowNode, at: string): GraphNode {
  const step = (s: AnyStep) => describeStep(s, `${at}.${s.id}`);
  switch (node.type) {
    case 'step':
      return { type: 'step', at, step: step(node.step) };
    case 'parallel':
      return { type: 'parallel', at, steps: node.steps.map(step) };
    case 'branch':
      return { type: 'branch', at, steps: node.branches.map(([, s]) => step(s)) };
    case 'foreach':
      return { type: 'foreach', at, step: step(node.step), concurrency: node.concurrency };
    case 'loop':
      return {
        type: 'loop',
        at,
        step: step(node.step),
        loop: node.until ? 'dountil' : 'dowhile',
        maxIterations: node.maxIterations,
      };
    case 'sleep':
      return {
        type: 'sleep',
        at,
        path: `${at}.sleep`,
        ...(node.ms === undefined ? {} : { ms: node.ms }),
        ...(node.until instanceof Date ? { until: node.until.toISOString() } : {}),
      };
    case 'event':
      return { type: 'event', at, path: `${at}.event`, event: node.name, payload: toSchemaView(node.schema) };
  }
}

function describeStep(step: AnyStep, path: string): GraphStep {
  return {
    id: step.id,
    path,
    input: toSchemaView(step.input),
    ...(step.resumeSchema ? { resume: toSchemaView(step.resumeSchema) } : {}),
    ...(step.workflow ? { workflow: describeAt(step.workflow, `${path}/`) } : {}),
  };
}

/** The JSON Schema of what a schema accepts (its input side: a transform shows what goes in). */
export function toSchemaView(schema: z.ZodType): SchemaView {
  try {
    return { schema: z.toJSONSchema(schema, { io: 'input' }) as JsonSchema };
  } catch (error) {
    return { error: `no JSON Schema: ${error instanceof Error ? error.message : String(error)}` };
  }
}
