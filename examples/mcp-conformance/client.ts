/**
 * The MCP conformance suite's test client, built on `mcpTools`. The suite runs it as
 * `client.ts <server-url>` with the scenario in `MCP_CONFORMANCE_SCENARIO` (and its credentials in
 * `MCP_CONFORMANCE_CONTEXT`); it connects, signs in when asked, and calls every tool listed.
 * Run: `npx @modelcontextprotocol/conformance client --command "node --import tsx examples/mcp-conformance/client.ts" --suite all`.
 */
import type { ToolContext } from 'thinkflow';
import { type McpAuth, mcpTools } from 'thinkflow/mcp';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;

/** The sign-in page of the suite's authorization server answers with a redirect: follow it to our callback. */
async function openBrowser(page: URL): Promise<void> {
  const answer = await fetch(page, { redirect: 'manual' });
  const callback = answer.headers.get('location');
  if (!callback) throw new Error(`the sign-in page answered ${answer.status} without a redirect`);
  await fetch(callback);
}

function authFor(name: string): McpAuth | undefined {
  if (name === 'auth/client-credentials-jwt') {
    return {
      type: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      algorithm: context.signing_algorithm ?? 'ES256',
    };
  }
  if (name === 'auth/client-credentials-basic') {
    return { type: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (name === 'auth/pre-registration') {
    return {
      type: 'oauth',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      openBrowser,
      tokenDir: false,
    };
  }
  if (name.startsWith('auth/')) {
    return {
      type: 'oauth',
      clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
      openBrowser,
      tokenDir: false,
    };
  }
  return undefined;
}

/** Arguments for a listed tool: a number for each number field, a word for each string. */
function argumentsFor(schema: { properties?: Record<string, { type?: string }> }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    args[key] = field.type === 'number' || field.type === 'integer' ? 2 : field.type === 'boolean' ? true : 'test';
  }
  return args;
}

const set = await mcpTools({
  url,
  auth: authFor(scenario),
  // Accept every form with what the person left untouched: the SDK fills in the schema's defaults.
  elicit: () => ({ action: 'accept', content: {} }),
  onWarning: (message) => console.error(message),
});
const ctx: ToolContext = {
  signal: new AbortController().signal,
  runId: 'conformance',
  callId: 'call',
  logger: console,
  approve: async () => true,
};
try {
  for (const tool of set.tools) {
    const output = await tool.run(argumentsFor(tool.parameters as never), { ...ctx, callId: tool.name });
    console.log(tool.name, JSON.stringify(output).slice(0, 200));
  }
} finally {
  await set.close();
}
