import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMcpClientSdk } from '../../../src/tools/mcp/mcp-client-sdk.js';
import { mcpAuthSession } from '../../../src/tools/mcp/mcp-oauth.js';

describe('OAuth sign-in state of an MCP server', () => {
  it('keeps the registration and tokens in the data dir (0600), per server, for the next run', async () => {
    const sdk = await loadMcpClientSdk();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-auth-'));
    const url = new URL('https://tools.example/mcp');
    const first = mcpAuthSession(sdk, { type: 'oauth', tokenDir: dir }, url);
    await first.provider.saveClientInformation?.({ client_id: 'registered-1', redirect_uris: ['http://127.0.0.1/cb'] });
    await first.provider.saveTokens({ access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer' });
    await first.close();
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);

    const again = mcpAuthSession(sdk, { type: 'oauth', tokenDir: dir }, url);
    expect(await again.provider.tokens()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    expect(await again.provider.clientInformation()).toMatchObject({ client_id: 'registered-1' });
    const other = mcpAuthSession(sdk, { type: 'oauth', tokenDir: dir }, new URL('https://other.example/mcp'));
    expect(await other.provider.tokens()).toBeUndefined();
    await again.provider.invalidateCredentials?.('tokens');
    expect(await mcpAuthSession(sdk, { type: 'oauth', tokenDir: dir }, url).provider.tokens()).toBeUndefined();
  });

  it('waits for the code the browser brings back to the local callback, checking the state', async () => {
    const sdk = await loadMcpClientSdk();
    const server = createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const mcpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const opened: URL[] = [];
    const session = mcpAuthSession(
      sdk,
      { type: 'oauth', tokenDir: false, openBrowser: (page) => void opened.push(page) },
      new URL(mcpUrl),
    );
    try {
      // A 401 starts the callback listener before the SDK builds its redirect URL from it.
      expect((await session.fetch(mcpUrl)).status).toBe(401);
      const callback = String(session.provider.redirectUrl);
      expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const page = new URL('https://auth.example/authorize');
      await session.provider.redirectToAuthorization(page);
      expect(opened).toEqual([page]);
      const code = session.waitForCode?.();
      expect((await fetch(`${callback}?code=stolen&state=wrong`)).status).toBe(400);
      const state = await session.provider.state?.();
      expect((await fetch(`${callback}?code=the-code&state=${state}`)).status).toBe(200);
      expect(await code).toBe('the-code');
    } finally {
      await session.close();
      server.close();
    }
  });
});
