import { dirname } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../agent/index.js';
import { ConfigError } from '../../core/index.js';
import { resolveModel } from '../../llm/index.js';
import type { AnyTool } from '../../tools/index.js';
import { builtinTools } from '../../tools/node.js';
import type { ThinkflowConfig } from './define-config.js';

/** One agent in a `thinkflow.config.json`/`.yaml`: a model spec and built-in tool kits by name. */
export const AgentSpec = z
  .object({
    /** A model spec, as `--model` takes it: `demo`, `openai:gpt-4o-mini`, `ollama:qwen3`, ... */
    model: z.string().min(1),
    /** Built-in tool kits by name (`calculator`, `files`, `http`, `datetime`, `units`, `search`, `data`, `chart`). */
    tools: z.array(z.string()).optional(),
    instructions: z.string().optional(),
    protocol: z.enum(['auto', 'native', 'json', 'react']).optional(),
    maxSteps: z.number().int().positive().optional(),
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
    const tools = toolsOf(spec, { name, file, root });
    agents[name] = () =>
      new Agent({
        name,
        model: resolveModel(spec.model),
        tools,
        instructions: spec.instructions,
        protocol: spec.protocol,
        maxSteps: spec.maxSteps,
      });
  }
  return { ...(parsed.data as Omit<ThinkflowConfig, 'agents'>), agents };
}

function toolsOf(spec: AgentSpec, where: { name: string; file: string; root: string }): AnyTool[] {
  const tools: AnyTool[] = [];
  for (const kit of spec.tools ?? []) {
    const make = builtinTools[kit];
    if (!make) {
      throw new ConfigError({
        message: `${where.file}: agent "${where.name}" names an unknown tool kit "${kit}". Available: ${Object.keys(builtinTools).join(', ')}.`,
      });
    }
    tools.push(...make({ root: where.root }));
  }
  return tools;
}
