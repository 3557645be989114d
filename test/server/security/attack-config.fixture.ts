// The config the browser attack test serves: scripted models, a tool that needs approval and leaves a
// marker file when it runs (so the test sees whether an attacker's approval got through).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { defineConfig } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a service.',
  input: z.object({ service: z.string() }),
  needsApproval: true,
  run: ({ service }) => {
    writeFileSync(join(process.env.MARKER_DIR ?? '.', `deployed-${service}`), 'ran');
    return `deployed ${service}`;
  },
});

export default defineConfig({
  agents: {
    echo: () => new Agent({ model: scriptedModel((request) => `echo: ${request.messages.at(-1)?.content ?? ''}`) }),
    ops: () =>
      new Agent({
        model: scriptedModel([
          { text: '', toolCalls: [{ id: 'd1', name: 'deploy', arguments: '{"service":"prod"}' }] },
          'Deployment handled.',
        ]),
        tools: [deploy],
      }),
  },
  hooks: { ticket: { agent: 'echo' } },
});
