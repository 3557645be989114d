import type { SessionStore } from '../../memory/index.js';
import type { Workflow } from '../../workflow/index.js';
import type { AgentEntry, RunStore } from '../records/index.js';
import type { RetentionConfig } from '../runs/index.js';
import type { OnlineScoringConfig } from '../runs/node.js';
import type { ScheduleConfig } from '../schedules/index.js';
import type { AppSettings } from './app-settings.js';

/** Which run store a server uses when none is passed on the command line. */
export type StoreConfig =
  | { type: 'sqlite' /** Default `<data-dir>/runs.db`. */; path?: string }
  | { type: 'postgres'; connectionString: string; schema?: string }
  | RunStore;

/** What `thinkflow.config.ts` exports: the agents and workflows to serve, and how. */
export interface ThinkflowConfig extends AppSettings {
  /**
   * Agents by the name clients use; a factory is called once per run. May be left out (or empty) when
   * the config serves workflows: a config needs at least one agent or one workflow.
   */
  agents?: Record<string, AgentEntry>;
  /** Workflows by name, for `thinkflow workflow run <name>` (see docs/workflows.md). */
  workflows?: Record<string, Workflow>;
  /** Cron triggers: start an agent on a schedule. */
  schedules?: ScheduleConfig[];
  store?: StoreConfig;
  /**
   * Where `/v1/sessions/:id` conversations live. Default: SQLite `sessions.db` in the data dir, apart
   * from `thinkflow chat`'s `thinkflow.db`; pass `new SqliteSessionStore({ dataDir })` to share the CLI's.
   */
  sessions?: SessionStore;
  /** Serve the studio web page at `/studio` (`thinkflow studio` turns it on). Default false. */
  studio?: boolean;
  /** How long finished runs are kept (default 30 days; `maxAgeDays: 0` keeps them forever). */
  retention?: RetentionConfig;
  /**
   * Online scoring: scorers per agent score a sample of its finished runs in the background; the scores
   * are kept with the run (`GET /v1/runs/:id/scores`). See docs/evals.md#online-scoring.
   */
  scoring?: OnlineScoringConfig;
}

/**
 * Types a `thinkflow.config.ts` (it returns the config as is).
 *
 * @example
 * export default defineConfig({
 *   agents: { helper: () => new Agent({ model: openaiCompatible({ model: 'gpt-4o-mini' }) }) },
 *   hooks: { ticket: { agent: 'helper' } },
 *   schedules: [{ cron: '0 9 * * 1-5', agent: 'helper', input: 'Summarise the overnight tickets.' }],
 * });
 */
export function defineConfig(config: ThinkflowConfig): ThinkflowConfig {
  return config;
}
