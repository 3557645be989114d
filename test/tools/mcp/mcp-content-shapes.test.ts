import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../src/llm/index.js';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { stdioFixture, toolContext } from './fixture-process.js';

const PNG = Buffer.from('pngbytes').toString('base64');
const WAV = Buffer.from('wavbytes').toString('base64');

describe('mcpTools reads every MCP content block a server sends (real SDK server process)', { timeout: 60_000 }, () => {
  const model = scriptedModel(() => 'A chart and a chime.');
  let set: McpToolSet;
  beforeAll(async () => {
    set = await mcpTools({ ...stdioFixture(), sampling: { model, approve: () => true } });
  });
  afterAll(() => set?.close());

  const tool = (name: string) => {
    const found = set.tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };

  it('keeps embedded text and binary resources and audio, an embedded image as an image', async () => {
    expect(await tool('embedded').run({}, toolContext())).toEqual([
      { type: 'text', text: 'the notes' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'file', data: WAV, mediaType: 'audio/wav' },
    ]);
  });

  it('passes every block of a sampling message to the model, not only the first', async () => {
    expect(await tool('ask_model').run({}, toolContext())).toBe('A chart and a chime.');
    const users = (model.calls.at(-1)?.messages ?? []).filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual([
      'Describe these.',
      [{ type: 'image', data: PNG, mediaType: 'image/png' }],
      [{ type: 'file', data: WAV, mediaType: 'audio/wav' }],
    ]);
  });
});
