import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { runCli } from './run-cli.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('thinkflow run --attach (spawned CLI)', { timeout: 180_000 }, () => {
  let server: WireServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAIServer();
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-attach-'));
    writeFileSync(join(dir, 'pixel.png'), Buffer.from(PNG, 'base64'));
    writeFileSync(join(dir, 'notes.pdf'), Buffer.from('%PDF-1.4\n'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends each attached file with the question, images as images and PDFs as files', async () => {
    server.push('A single red pixel.');
    const result = await runCli([
      'run',
      '--model',
      `compat:${server.url}/v1#vision-model`,
      '--attach',
      join(dir, 'pixel.png'),
      '--attach',
      join(dir, 'notes.pdf'),
      'What is this?',
    ]);
    expect(result.stdout.trim()).toBe('A single red pixel.');
    const messages = server.requests[0].body.messages as { role: string; content: unknown }[];
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        {
          type: 'file',
          file: {
            file_data: `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n').toString('base64')}`,
            filename: 'attachment-3.pdf',
          },
        },
      ],
    });
  });

  it('refuses a file type it cannot send, naming the ones it can', async () => {
    const result = await runCli(['run', '--model', 'demo', '--attach', join(dir, 'x.exe'), 'q']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--attach .*x\.exe: unknown file type\. Attach \.png/);
  });
});
