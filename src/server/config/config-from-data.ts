import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { Agent, createToolRouter } from '../../agent/index.js';
import { protocolOption } from '../../code/index.js';
import { ConfigError } from '../../core/index.js';
import { resolveModel } from '../../llm/index.js';
import { toolsFromKits, withModelDefaults } from '../../tools/node.js';
import type { Workspace } from '../../workspace/index.js';
import { WorkspaceSpec, withRunWorkspace } from '../workspaces/index.js';
import type { ThinkflowConfig } from './define-config.js';

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
  })
  .strict();
export type AgentSpec = z.infer<typeof AgentSpec>;

/** A config written as data: agents as specs, everything else as in `thinkflow.config.ts`. */
export const DataConfig = z.looseObject({ agents: z.record(z.string(), AgentSpec) });
export type DataConfig = z.infer<typeof DataConfig>;

/**
 * Turns a config read from JSON or YAML into a `ThinkflowConfig`: each agent spec becomes a factory that
 * builds a fresh `Agent` per run. Tool kits that touch files are confined to the config file's folder.
 */
export function configFromData(data: unknown, file: string): ThinkflowConfig {
  const parsed = DataConfig.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new ConfigError({ message: `${file} is not a valid thinkflow config: ${issues.join('; ')}` });
  }
  const root = dirname(file);
  const agents: ThinkflowConfig['agents'] = {};
  for (const [name, spec] of Object.entries(parsed.data.agents)) {
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
  return { ...(parsed.data as Omit<ThinkflowConfig, 'agents'>), agents };
}
