import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, type ModelChunk, ModelError, type ToolSpec } from '../../../../src/core/index.js';
import { type LlamaCppModel, llamaCpp } from '../../../../src/llm/providers/llamacpp/index.js';
import { parseJsonAction, parseReAct } from '../../../../src/protocols/index.js';
import { defineTool } from '../../../../src/tools/index.js';
import { writeTinyLlamaGguf } from '../../../helpers/gguf-writer.js';

const installed = await import('node-llama-cpp').then(
  () => true,
  () => false,
);
if (!installed)
  console.warn('SKIPPED: node-llama-cpp is not installed (optional dependency); llamaCpp runtime tests skipped.');

const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  input: z.object({ city: z.string(), days: z.number().int().min(1).max(7), unit: z.enum(['c', 'f']) }),
  run: () => 'sunny',
});
const add = defineTool({
  name: 'add',
  description: 'Adds numbers.',
  input: z.object({ numbers: z.array(z.number()), label: z.string().optional() }),
  run: () => 0,
});
const tools: ToolSpec[] = [weather, add].map((t) => ({
  name: t.name,
  description: t.description,
  parameters: t.parameters,
}));
const byName = new Map([weather, add].map((t) => [t.name, t]));
const user = (content: string) => [{ role: 'user' as const, content }];

describe.skipIf(!installed)('llamaCpp on a tiny generated GGUF (real llama.cpp runtime)', { timeout: 120_000 }, () => {
  let dir: string;
  let model: LlamaCppModel;
  /** Leans to end lines and turns, so free-text ReAct lines finish (the default model leans to `"`). */
  let lineModel: LlamaCppModel;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-gguf-'));
    writeTinyLlamaGguf(join(dir, 'tiny.gguf'));
    writeTinyLlamaGguf(join(dir, 'lines.gguf'), { prefer: { '<|im_end|>': 4, '\n': 3, '"': 2, '}': 1, ']': 1 } });
    const common = { contextSize: 256, gpuLayers: 0, gpu: false as const, threads: 1 };
    model = llamaCpp({ modelPath: join(dir, 'tiny.gguf'), ...common });
    lineModel = llamaCpp({ modelPath: join(dir, 'lines.gguf'), ...common });
  });
  afterAll(async () => {
    await model.dispose();
    await lineModel.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the file and generates through the chat template, counting tokens', async () => {
    const reply = await model.generate({
      messages: [{ role: 'system', content: 'Be brief.' }, ...user('Hi')],
      maxTokens: 6,
    });
    expect(reply.text.length).toBeGreaterThan(0);
    expect(reply.finishReason).toBe('length');
    expect(reply.usage?.completionTokens).toBeGreaterThan(0);
    expect(reply.usage?.completionTokens).toBeLessThanOrEqual(6);
    expect(reply.usage?.promptTokens).toBeGreaterThan(10);
    expect(reply.modelId).toMatch(/^llamacpp:.*tiny\.gguf$/);
  });

  it('streams text deltas that add up to the final response', async () => {
    const chunks: ModelChunk[] = [];
    for await (const chunk of model.stream({ messages: user('Hello'), maxTokens: 8 })) chunks.push(chunk);
    const last = chunks.at(-1);
    expect(last?.type).toBe('response');
    const deltas = chunks.flatMap((c) => (c.type === 'text_delta' ? [c.text] : []));
    expect(deltas.length).toBeGreaterThan(0);
    expect(last?.type === 'response' && last.response.text).toBe(deltas.join(''));
  });

  it('json protocol: every reply is one JSON action whose input validates against the tool schema', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const reply = await model.generate({
        messages: user(`Task ${i}: what is the weather?`),
        tools,
        protocol: 'json',
        temperature: i === 0 ? 0 : 0.9,
        maxTokens: 200,
      });
      const step = parseJsonAction(reply.text);
      expect(step.type, reply.text).not.toBe('invalid');
      if (step.type === 'action') {
        seen.add(step.tool);
        const tool = byName.get(step.tool);
        expect(tool, reply.text).toBeDefined();
        expect(tool?.parse(step.input), reply.text).toMatchObject({ ok: true });
      } else if (step.type === 'final') {
        seen.add('final_answer');
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('react protocol: every reply is a Thought plus a valid Action/Action Input or a Final Answer', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await lineModel.generate({
        messages: user(`Question ${i}`),
        tools,
        protocol: 'react',
        temperature: i === 0 ? 0 : 0.9,
        maxTokens: 200,
      });
      expect(reply.text.startsWith('Thought: ')).toBe(true);
      const step = parseReAct(reply.text);
      if (reply.text.includes('\nAction: ')) {
        expect(step.type, reply.text).toBe('action');
        if (step.type === 'action')
          expect(byName.get(step.tool)?.parse(step.input), reply.text).toMatchObject({ ok: true });
      } else {
        expect(reply.text).toMatch(/\nFinal Answer: /);
      }
    }
  });

  it('without tool specs, still constrains the reply shape so it parses (json and react)', async () => {
    const json = await model.generate({
      messages: user('Anything'),
      protocol: 'json',
      temperature: 0.7,
      maxTokens: 200,
    });
    expect(parseJsonAction(json.text).type, json.text).not.toBe('invalid');
    const react = await lineModel.generate({
      messages: user('Anything'),
      protocol: 'react',
      temperature: 0.7,
      maxTokens: 200,
    });
    expect(react.text, react.text).toMatch(/^Thought: .*\n(Action: [\w-]+\nAction Input: \{|Final Answer: )/s);
    if (react.text.includes('Action Input:')) expect(parseReAct(react.text).type, react.text).toBe('action');
  });

  it('with an explicitly empty tool list allows only a final answer', async () => {
    const reply = await model.generate({ messages: user('Done?'), tools: [], protocol: 'json', maxTokens: 200 });
    expect(parseJsonAction(reply.text), reply.text).toMatchObject({ type: 'final' });
  });

  it('aborts mid-generation with a model_aborted error and keeps working after', async () => {
    const controller = new AbortController();
    const stream = model.stream({ messages: user('Go on'), maxTokens: 150, signal: controller.signal });
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.type === 'text_delta') controller.abort();
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('model_aborted');
    const again = await model.generate({ messages: user('Again'), maxTokens: 3 });
    expect(again.text.length).toBeGreaterThan(0);
  });

  it('rejects a prompt longer than the context with a clear error, then still answers', async () => {
    const error = await model.generate({ messages: user('word '.repeat(400)), maxTokens: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(400);
    expect((error as Error).message).toMatch(/context holds 256: shorten the conversation or raise contextSize/);
    const reply = await model.generate({ messages: user('Short'), maxTokens: 3 });
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it('caps generation at the room left in the context', async () => {
    const reply = await model.generate({ messages: user('word '.repeat(40)), maxTokens: 10_000 });
    expect(reply.finishReason).toBe('length');
    expect((reply.usage?.promptTokens ?? 0) + (reply.usage?.completionTokens ?? 0)).toBeLessThanOrEqual(256 + 2);
  });

  it('names the fix when the model file cannot be loaded', async () => {
    const missing = llamaCpp({ modelPath: join(dir, 'nope.gguf'), gpu: false, threads: 1 });
    const error = await missing.generate({ messages: user('x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/Could not load the GGUF model ".*nope\.gguf"/);
  });
});
