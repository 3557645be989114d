/**
 * `thinkflow/server/fetch`: the HTTP API as a portable fetch handler, for a Worker, `Bun.serve`,
 * `Deno.serve` or a page. `createApp(options).fetch` serves the agent, OpenAI-compatible, UI-stream
 * and AG-UI routes behind the same security middleware as `thinkflow serve`, and its import graph
 * names no Node built-in. Pair it with the memory stores (`memoryRunStore()` here, `memorySessionStore()`
 * from the root) or with stores you pass. Binding a port on Node, the config file, SQLite and the
 * queue stay in `thinkflow/server`.
 */
export {
  type AgentEntry,
  type AuthConfig,
  type Caller,
  type CorsConfig,
  type CreateAppOptions,
  createApp,
  memoryRunStore,
  type RunService,
  type RunStore,
  type SecurityConfig,
  type ServableAgent,
  type ThinkflowApp,
} from '../server/fetch.js';
