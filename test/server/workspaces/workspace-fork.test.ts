import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import type { ModelRequest } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunRecord, type WorkspaceSpec, withRunWorkspace } from '../../../src/server/index.js';
import { embeddedApp, postJson, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Steps 0 to 3 each write f<step> and list the files; step 4 answers. Call ids are unique per run and step.
let runs = 0;
function reply(request: ModelRequest) {
  const done = request.messages.filter((m) => m.role === 'tool').length;
  if (done >= 4) return 'done';
  const command = `echo ${done} > f${done}.txt && ls`;
  return { text: '', toolCalls: [{ id: `r${runs++}-s${done}`, name: 'bash', arguments: JSON.stringify({ command }) }] };
}

const sandboxed = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('fork-run and rewind of a run with a workspace', () => {
  it.each([
    ['memory', true],
    ['sandbox', sandboxed],
  ] as const)('%s: a fork at step 2 of a 5-step run starts from step 2 files', async (kind, can) => {
    if (!can) return;
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    chmodSync(dir.path, 0o755);
    const spec: WorkspaceSpec = kind === 'memory' ? { kind } : { kind, dir: join(dir.path, 'ws') };
    const coder = withRunWorkspace(
      spec,
      (workspace) => new Agent({ model: scriptedModel(reply), workspace, sameObservationLimit: 10 }),
    );
    const server = embeddedApp({ agents: { coder } });
    cleanups.push(() => server.close());

    const source = (await (
      await server.request('/v1/agents/coder/runs', postJson({ input: 'go', wait: true }))
    ).json()) as RunRecord;
    expect(source.status).toBe('done');
    expect(source.result?.steps).toHaveLength(5);
    expect(source.result?.steps[3].toolCalls[0].output).toContain('f0.txt\nf1.txt\nf2.txt\nf3.txt');

    const fork = (await (
      await server.request(`/v1/runs/${source.id}/fork`, postJson({ fromStep: 2, wait: true }))
    ).json()) as RunRecord;
    expect(fork.status).toBe('done');
    const steps = fork.result?.steps ?? [];
    // Step 2 ran again on step 2's files: f0 and f1 were there, f3 (made later in the source) was not.
    expect(steps[2].toolCalls[0].output).toContain('stdout:\nf0.txt\nf1.txt\nf2.txt\n');
    expect(steps[3].toolCalls[0].output).toContain('f0.txt\nf1.txt\nf2.txt\nf3.txt');
  });

  it.each([
    ['memory', true],
    ['sandbox', sandboxed],
  ] as const)('%s: POST /v1/runs/:id/rewind puts the files back to a step and logs it', async (kind, can) => {
    if (!can) return;
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    chmodSync(dir.path, 0o755);
    const base = join(dir.path, 'ws');
    const spec: WorkspaceSpec = kind === 'memory' ? { kind } : { kind, dir: base };
    const coder = withRunWorkspace(
      spec,
      (workspace) => new Agent({ model: scriptedModel(reply), workspace, sameObservationLimit: 10 }),
    );
    const server = embeddedApp({ agents: { coder } });
    cleanups.push(() => server.close());
    const source = (await (
      await server.request('/v1/agents/coder/runs', postJson({ input: 'go', wait: true }))
    ).json()) as RunRecord;
    if (kind === 'sandbox')
      expect(readdirSync(join(base, source.id)).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);

    const rewound = await server.request(`/v1/runs/${source.id}/rewind`, postJson({ step: 1 }));
    expect(rewound.status).toBe(200);
    expect((await rewound.json()).snapshot).toEqual(expect.any(String));
    if (kind === 'sandbox') expect(readdirSync(join(base, source.id))).toEqual(['f0.txt']);
    const events = await server.store.readEvents(source.id, 0);
    expect(events.at(-1)?.event).toMatchObject({ type: 'workspace_change', rewound: { step: 1 } });

    const refused = await server.request(`/v1/runs/${source.id}/rewind`, postJson({ step: 9 }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toMatch(/0 to 5/);
    expect((await server.request('/v1/runs/nope/rewind', postJson({ step: 0 }))).status).toBe(404);
  });
});
