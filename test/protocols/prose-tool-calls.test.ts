import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import { findProseToolCall } from '../../src/protocols/index.js';

/** A reply and whether it is a tool call written in prose (invalid) or an answer that only mentions a tool. */
interface ProseEntry {
  id: string;
  source: string;
  protocol: 'native' | 'json' | 'react';
  tools: string[];
  input: string;
  /** `action`: the protocol already reads it as a call, so it runs at once. */
  expected: { type: 'invalid'; tool: string } | { type: 'final' } | { type: 'action'; tool: string };
}

const corpus: ProseEntry[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'protocols', 'prose-tool-calls.json'), 'utf8'),
);

const tool = (name: string, ran: string[]) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({}).passthrough(),
    run: () => {
      ran.push(name);
      return 'ok';
    },
  });

/** The protocol's own form of a call to `name`, for the model's second try. */
function properCall(protocol: ProseEntry['protocol'], name: string) {
  if (protocol === 'native') return { text: '', toolCalls: [{ id: 'c1', name, arguments: '{}' }] };
  if (protocol === 'json') return `{"action": "${name}", "action_input": {}}`;
  return `Thought: call it\nAction: ${name}\nAction Input: {}`;
}

describe('a tool call written in prose', () => {
  it.each(corpus.map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    const ran: string[] = [];
    const expected = entry.expected;
    const replies =
      expected.type === 'invalid'
        ? [entry.input, properCall(entry.protocol, expected.tool), '完成。Done.']
        : [entry.input, '完成。Done.'];
    const model = scriptedModel(replies);
    const events: AgentEvent[] = [];
    const agent = new Agent({ model, tools: entry.tools.map((n) => tool(n, ran)), protocol: entry.protocol });
    const result = await agent.run('问题 question', { onEvent: (e) => events.push(e) });
    const invalid = events.find((e) => e.type === 'invalid_output');
    if (expected.type === 'action') {
      expect(invalid).toBeUndefined();
      expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ tool: expected.tool });
      return;
    }
    if (expected.type === 'final') {
      expect(invalid).toBeUndefined();
      expect(result.status).toBe('done');
      expect(ran).toEqual([]);
      return;
    }
    // Not the answer: the model is corrected, in its reply's language, and its next proper call runs.
    expect(invalid, 'an invalid_output event').toBeDefined();
    expect(result.steps[0].kind).toBe('invalid');
    const correction = result.steps[0].observation ?? '';
    expect(correction).toContain(expected.tool);
    expect(correction).toMatch(
      /[\p{sc=Han}]/u.test(entry.input) && !/^[\x00-\x7f]*$/.test(entry.input) ? /工具/ : /tool/,
    );
    expect(ran).toEqual([expected.tool]);
    expect(result.output).toBe('完成。Done.');
  });

  it('an answer that names a tool is not a call unless it uses call syntax or an announce phrase', () => {
    expect(findProseToolCall('天气工具 get_weather 可以告诉你明天的天气。', ['get_weather'])).toBeUndefined();
    expect(findProseToolCall('You can use get_weather any time.', ['get_weather'])).toBeUndefined();
    expect(findProseToolCall('I will call get_weather for Paris.', ['get_weather'])).toMatchObject({
      tool: 'get_weather',
    });
    expect(findProseToolCall('我来调用 get_weather 查一下', ['get_weather'])).toMatchObject({ tool: 'get_weather' });
    expect(findProseToolCall('调用工具：搜索', ['搜索'])).toMatchObject({ tool: '搜索' });
    expect(findProseToolCall('Let me use the `search` tool.', ['search'])).toMatchObject({ tool: 'search' });
    // Using a tool's output is no call of it.
    expect(findProseToolCall('Let me use the search results: Paris is the capital.', ['search'])).toBeUndefined();
    expect(findProseToolCall('我用搜索结果来回答：巴黎是法国首都。', ['搜索'])).toBeUndefined();
    // Only registered tools count.
    expect(findProseToolCall('I will call fly_to_moon(now)', ['search'])).toBeUndefined();
  });
});
