import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServing, serveMcp } from '../../../src/server/index.js';
import { builtinTools } from '../../../src/tools/node.js';
import { httpRequest } from '../raw-http.js';

const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'read_file', arguments: { path: 'secret.txt' } },
};
const accept = 'application/json, text/event-stream';

describe('MCP over HTTP behind the same checks as the API', { timeout: 30_000 }, () => {
  let serving: McpHttpServing;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'thinkflow-mcp-sec-'));
    writeFileSync(join(root, 'secret.txt'), 'the secret');
    const tools = (builtinTools.files ?? (() => []))({ root });
    serving = await serveMcp(tools, {
      transport: 'http',
      port: 0,
      auth: { tokens: ['mcp-token', { token: 'alice-token', principal: 'alice' }] },
    });
  });
  afterAll(async () => {
    await serving.close();
    rmSync(root, { recursive: true, force: true });
  });

  const post = (headers: Record<string, string>, body = JSON.stringify(call)) =>
    httpRequest(serving.url, { method: 'POST', headers: { accept, ...headers }, body });
  const good = { authorization: 'Bearer mcp-token', 'content-type': 'application/json' };

  it('refuses a foreign Host, a foreign Origin, a text/plain body and a missing token, in JSON-RPC shape', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ ...good, host: 'rebind.test' }, 403],
      [{ ...good, origin: 'http://attacker.test' }, 403],
      [{ ...good, origin: 'null' }, 403],
      [{ ...good, 'content-type': 'text/plain' }, 415],
      [{ 'content-type': 'application/json' }, 401],
      [{ ...good, authorization: 'Bearer wrong' }, 401],
    ];
    for (const [headers, status] of cases) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(status);
      const body = JSON.parse(response.body) as { jsonrpc: string; error: { message: string } };
      expect(body.jsonrpc).toBe('2.0');
      expect(body.error.message).not.toContain('the secret');
    }
  });

  it('takes the tokens the API takes, a token with its principal included', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await post({ ...good, authorization: 'Bearer alice-token' }, list)).status).toBe(200);
    const wrong = await post({ ...good, authorization: 'Basic YTpi' }, list);
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.body).jsonrpc).toBe('2.0');
  });

  it('serves the SDK client that sends the token', async () => {
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), {
        requestInit: { headers: { authorization: 'Bearer mcp-token' } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'read_file', arguments: { path: 'secret.txt' } });
      expect(JSON.stringify(result.content)).toContain('the secret');
      // Arguments too deep to validate are a tool error naming the limit, not the stack overflow's text.
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const refused = await post(good, JSON.stringify(call).replace('"secret.txt"', deep));
      expect(refused.body).toContain('nested deeper than 100 levels');
      expect(refused.body).not.toMatch(/call stack/);
    } finally {
      await client.close();
    }
  });
});
