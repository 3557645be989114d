import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileTools } from '../../../../src/entries/node-tools.js';
import { Agent, scriptedModel } from '../../../../src/index.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tf-approve-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function writingAgent(approve: () => boolean, asked: unknown[]) {
  const model = scriptedModel([
    { text: '', toolCalls: [{ id: 'w1', name: 'write_file', arguments: '{"path":"notes.txt","content":"hi"}' }] },
    'Done.',
  ]);
  return new Agent({
    model,
    protocol: 'native',
    tools: fileTools({ root, allowWrite: true }),
    approve: (request) => {
      asked.push(request);
      return approve();
    },
  });
}

describe('file writes go through approval in a run', () => {
  it('does not write when the person denies, and tells the model', async () => {
    const asked: unknown[] = [];
    const result = await writingAgent(() => false, asked).run('Write a note.');
    expect(asked).toEqual([expect.objectContaining({ tool: 'write_file' })]);
    await expect(stat(path.join(root, 'notes.txt'))).rejects.toThrow();
    expect(result.steps[0]?.toolCalls[0]?.ok).toBe(false);
    expect(result.steps[0]?.observation).toMatch(/denied|not approved/i);
  });

  it('writes when approved', async () => {
    const result = await writingAgent(() => true, []).run('Write a note.');
    expect(result.status).toBe('done');
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('hi');
  });
});
