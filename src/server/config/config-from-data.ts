import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { Agent, createToolRouter } from '../../agent/index.js';
import { protocolOption } from '../../code/index.js';
import { ConfigError } from '../../core/index.js';
import { resolveModel } from '../../llm/index.js';
import { toolsFromKits, withModelDefaults } from '../../tools/node.js';
import type { Workspace } from '../../workspace/index.js';
import type { OnlineScoringConfig } from '../runs/node.js';
import { WorkspaceSpec, withRunWorkspace } from '../workspaces/index.js';
import type { ThinkflowConfig } from './define-config.js';
import { agentScoringFromData, ScorerEntry } from './scorers-from-data.js';

/** One agent in a `thinkflow.config.json`/`.yaml`: a model spec and built-in tool kits by name. */
export const AgentSpec = z
  .object({
    /** A model spec, as `--model` takes it: `demo`, `openai:gpt-4o-mini`, `ollama:qwen3`, ... */
    model: z.string().min(1),
    /** Built-in tool kits by name, as `--tools` takes them (`demo`, `calculator`, `files`, `http`, …); `demo` gets `demo` by default. */
    tools: z.array(z.string()).optional(),
    instructions: z.string().optional(),
    protocol: z.enum(['auto', 'native', 'json', 'react', 'code']).optional(),
    maxSteps: z.number().int().positive().optional(),
    /** A workspace per run: `{ kind: memory }` or `{ kind: sandbox, dir?, network?, env?, limits? }`. */
    workspace: WorkspaceSpec.optional(),
    /** Online scoring of the agent's finished runs (see docs/evals.md#online-scoring). */
    scorers: z.array(ScorerEntry).optional(),
    /** The share of finished runs scored, 0..1 (default 1). */
    sampleRate: z.number().min(0).max(1).optional(),
  })
  .strict();
export type AgentSpec = z.infer<typeof AgentSpec>;

/** A config written as data: agents as specs, everything else as in `thinkflow.config.ts`. */
export const DataConfig = z.looseObject({
  agents: z.record(z.string(), AgentSpec),
  /** Online scoring's settings beside the agents' `scorers`: `otel: true` exports the scores to OpenTelemetry. */
  scoring: z
    .strictObject({
      timeoutMs: z.number().int().positive().optional(),
      concurrency: z.number().int().positive().optional(),
      maxQueued: z.number().int().positive().optional(),
      otel: z.boolean().optional(),
    })
    .optional(),
});
export type DataConfig = z.infer<typeof DataConfig>;

/** A data config read: the config, and the scorer modules its agents name (imported by `loadConfig`). */
export interface DataConfigRead {
  config: ThinkflowConfig;
  scorerModules: Record<string, { module: string; export?: string }[]>;
}

/**
 * Turns a config read from JSON or YAML into a `ThinkflowConfig`: each agent spec becomes a factory that
 * builds a fresh `Agent` per run, and its `scorers` online scoring. Tool kits that touch files are
 * confined to the config file's folder.
 */
export function configFromData(data: unknown, file: string): DataConfigRead {
  const parsed = DataConfig.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new ConfigError({ message: `${file} is not a valid thinkflow config: ${issues.join('; ')}` });
  }
  const root = dirname(file);
  const agents: ThinkflowConfig['agents'] = {};
  const scoring: OnlineScoringConfig = { ...parsed.data.scoring, agents: {} };
  const scorerModules: DataConfigRead['scorerModules'] = {};
  for (const [name, spec] of Object.entries(parsed.data.agents)) {
    if (spec.scorers?.length) {
      const { modules, ...own } = agentScoringFromData(spec.scorers, spec.sampleRate, `${file}: agent "${name}"`);
      scoring.agents[name] = own;
      if (modules.length) scorerModules[name] = modules;
    }
    // The same kits and demo defaults as `thinkflow run`: `model: demo` alone gets the demo tools in ReAct.
    const chosen = withModelDefaults(spec.model, { kits: spec.tools, protocol: spec.protocol });
    const tools = toolsFromKits(chosen.kits ?? [], { root }, `${file}: agent "${name}": `);
    const build = (workspace?: Workspace) =>
      new Agent({
        name,
        model: resolveModel(spec.model),
        tools,
        instructions: spec.instructions,
        protocol: chosen.protocol && protocolOption(chosen.protocol),
        toolRouting: createToolRouter(),
        maxSteps: spec.maxSteps,
        workspace,
      });
    const workspace = spec.workspace;
    if (!workspace) agents[name] = () => build();
    else if (workspace.kind === 'memory') agents[name] = withRunWorkspace(workspace, build);
    else {
      // A sandbox's runs live in `dir`, relative to the config file (default `workspaces/<agent>` beside it).
      const dir = resolve(root, workspace.dir ?? join('workspaces', name));
      agents[name] = withRunWorkspace({ ...workspace, dir }, build);
    }
  }
  const rest = parsed.data as Omit<ThinkflowConfig, 'agents' | 'scoring'>;
  const scored = Object.keys(scoring.agents).length > 0;
  return { config: { ...rest, agents, ...(scored ? { scoring } : {}) }, scorerModules };
}
