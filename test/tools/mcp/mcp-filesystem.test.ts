import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpTools } from '../../../src/tools/mcp/index.js';
import { toolContext } from './fixture-process.js';

const FILESYSTEM = join(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

describe('mcpTools against @modelcontextprotocol/server-filesystem', { timeout: 60_000 }, () => {
  it('gives the server its roots: started with no folder, it works in the configured root', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-roots-')));
    writeFileSync(join(root, 'hello.txt'), 'hi from the root');
    const set = await mcpTools({ command: process.execPath, args: [FILESYSTEM], roots: [root] });
    try {
      const tool = (name: string) => set.tools.find((t) => t.name === name);
      // The server asks for roots after initialization; its first tool call sees them.
      const allowed = String(await tool('list_allowed_directories')?.run({}, toolContext()));
      expect(allowed).toContain(root);
      expect(String(await tool('read_text_file')?.run({ path: join(root, 'hello.txt') }, toolContext()))).toBe(
        'hi from the root',
      );
    } finally {
      await set.close();
    }
  });
});

describe('mcpTools against a server that answers 401', () => {
  it('fails with a ConfigError that names the auth options', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(mcpTools({ url: `http://127.0.0.1:${port}/mcp` })).rejects.toMatchObject({
        name: 'ConfigError',
        message: expect.stringMatching(/401.*auth: \{ type: 'oauth' \}.*client_credentials.*headers/),
      });
    } finally {
      server.close();
    }
  });
});
