/**
 * The server wing's portable face: the HTTP API as a fetch handler, with nothing that needs Node
 * (no port binding, config file, SQLite or queue), for a Worker, `Bun.serve`, `Deno.serve` or a page.
 * `index.ts` is the whole wing, for Node.
 */

export { type AuthConfig, type CreateAppOptions, createApp, type ThinkflowApp } from './create-app.js';
export type { Caller } from './http/index.js';
export type { AgentEntry, RunService, RunStore, ServableAgent } from './records/index.js';
export type { CorsConfig, SecurityConfig } from './security/index.js';
export { memoryRunStore } from './stores/index.js';
