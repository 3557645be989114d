import type { Context } from 'hono';

/** The agent card of one agent: where to call it, in both protocol versions, and whether it wants a token. */
export function agentCard(c: Context, name: string, authRequired: boolean) {
  const url = new URL(`/a2a/${encodeURIComponent(name)}`, c.req.url).toString();
  return {
    protocolVersion: '0.3.0',
    name,
    description: `The thinkflow agent "${name}".`,
    url,
    preferredTransport: 'JSONRPC',
    // One endpoint, both versions: v1.0 clients read supportedInterfaces, v0.3 ones url and protocolVersion.
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: name, name, description: `Ask the agent "${name}".`, tags: ['thinkflow'] }],
    ...(authRequired
      ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] }
      : {}),
  };
}
