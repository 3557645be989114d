import { describe, expect, it } from 'vitest';
import { parseReAct } from '../../../src/protocols/index.js';

describe('parseReAct action inputs', () => {
  it('gives an object for JSON-like input and the trimmed string otherwise', () => {
    expect(parseReAct('Action: a\nAction Input: {"k": [1, 2]}')).toMatchObject({ input: { k: [1, 2] } });
    expect(parseReAct('Action: a\nAction Input:    plain text   ')).toMatchObject({ input: 'plain text' });
  });

  it('reads an input on the following lines', () => {
    expect(parseReAct('Action: a\nAction Input:\n{\n  "k": 1\n}')).toMatchObject({ input: { k: 1 } });
  });

  it('reads an input inside a ```json fence', () => {
    expect(parseReAct('Action: a\nAction Input:\n```json\n{"k": 1}\n```')).toMatchObject({ input: { k: 1 } });
  });

  it('reads an input inside an unlabelled fence as text when it is not JSON', () => {
    expect(parseReAct('Action: run\nAction Input:\n```\nls -la\n```')).toMatchObject({ input: 'ls -la' });
  });

  it('decodes a JSON-encoded string, and reads it again when it encodes an object', () => {
    expect(parseReAct('Action: a\nAction Input: "New York"')).toMatchObject({ input: 'New York' });
    expect(parseReAct('Action: a\nAction Input: "{\\"k\\": 1}"')).toMatchObject({ input: { k: 1 } });
  });

  it('repairs single quotes, trailing commas, comments and unquoted keys, and says so', () => {
    expect(parseReAct("Action: a\nAction Input: {'k': 'v',}")).toEqual({
      type: 'action',
      tool: 'a',
      input: { k: 'v' },
      repaired: true,
    });
    expect(parseReAct('Action: a\nAction Input: {k: 1 /* c */}')).toEqual({
      type: 'action',
      tool: 'a',
      input: { k: 1 },
      repaired: true,
    });
  });

  it('does not mark clean JSON as repaired', () => {
    expect(parseReAct('Action: a\nAction Input: {"k": 1}')).not.toHaveProperty('repaired');
  });

  it('repairs an input cut off after a complete value', () => {
    expect(parseReAct('Action: a\nAction Input: {"k": {"n": 1}')).toEqual({
      type: 'action',
      tool: 'a',
      input: { k: { n: 1 } },
      repaired: true,
    });
  });

  it('refuses an input cut off inside a string', () => {
    expect(parseReAct('Action: a\nAction Input: {"k": "unfinis')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('cut off'),
    });
  });

  it('refuses an Action with no Action Input, naming the tool', () => {
    expect(parseReAct('Action: lookup')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('"lookup" has no Action Input'),
    });
  });

  it('takes text on the line after the Action as its input', () => {
    expect(parseReAct('Action: shell\necho hi')).toMatchObject({ tool: 'shell', input: 'echo hi' });
  });

  it('drops a stop-sequence leftover at the end of the input', () => {
    expect(parseReAct('Action: a\nAction Input: value\nObs')).toMatchObject({ input: 'value' });
  });

  describe('calls on the Action line', () => {
    it.each([
      ['search[query text]', 'search', 'query text'],
      ['Search[Colorado orogeny]', 'Search', 'Colorado orogeny'],
      ['search("quoted")', 'search', 'quoted'],
      ["search('single')", 'search', 'single'],
      ['lookup({"id": 3})', 'lookup', { id: 3 }],
      ['get_weather(city="Paris", days=2)', 'get_weather', { city: 'Paris', days: 2 }],
      ['now()', 'now', {}],
      ['`search[backticks]`', 'search', 'backticks'],
    ])('reads %s', (line, tool, input) => {
      expect(parseReAct(`Action: ${line}`)).toEqual({ type: 'action', tool, input });
    });

    it('repairs a call whose closing bracket was cut off', () => {
      expect(parseReAct('Action: search[unfinished')).toEqual({
        type: 'action',
        tool: 'search',
        input: 'unfinished',
        repaired: true,
      });
    });
  });

  it('reads a LangChain structured-chat JSON blob on the Action', () => {
    expect(parseReAct('Action:\n```json\n{"action": "a", "action_input": {"k": 1}}\n```')).toEqual({
      type: 'action',
      tool: 'a',
      input: { k: 1 },
    });
  });

  it('cleans the decoration around a tool name', () => {
    expect(parseReAct('Action: **search**\nAction Input: x')).toMatchObject({ tool: 'search' });
    expect(parseReAct('Action: "search".\nAction Input: x')).toMatchObject({ tool: 'search' });
    expect(parseReAct('Action: Use the search tool\nAction Input: x')).toMatchObject({ tool: 'search' });
    expect(parseReAct('Action: Wikipedia Tool\nAction Input: x')).toMatchObject({ tool: 'Wikipedia Tool' });
  });
});
