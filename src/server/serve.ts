import { join } from 'node:path';
import { plural, redactText } from '../core/index.js';
import { thinkflowHome } from '../llm/index.js';
import { SqliteSessionStore } from '../memory/node.js';
import { globalOtelScoreExporter } from '../trace/index.js';
import { type ApiToken, authRequired, checkTokenEntries } from './caller/index.js';
import type { StoreConfig, ThinkflowConfig } from './config/index.js';
import { createApp, type ThinkflowApp } from './create-app.js';
import { createLogThrottle, isDependencyUnavailable } from './health/index.js';
import { listenHttp } from './listen/index.js';
import { createQueueRuns, queueStepDispatch } from './queue/index.js';
import type { EvalStore, RunService, RunStore } from './records/index.js';
import { createLocalRuns, type Retention, startRetention } from './runs/index.js';
import { type ScoredRun, scoreRuns } from './runs/node.js';
import { startSchedules } from './schedules/index.js';
import { boundHosts, envApiTokens } from './security/index.js';
import { PostgresEvalStore, PostgresRunStore } from './stores/index.js';
import { SqliteEvalStore, SqliteRunStore } from './stores/node.js';
import { openWorkflowRuns, type WorkflowRuns } from './workflows/index.js';

export interface ServeOptions {
  config: ThinkflowConfig;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Bearer tokens besides the config's and `THINKFLOW_API_TOKENS` (`--token`). */
  tokens?: string[];
  /** Host names answered besides the config's `security.allowedHosts` and loopback names (`--allowed-host`). */
  allowedHosts?: string[];
  /** Where the SQLite store lives. Default `$THINKFLOW_HOME`, else `~/.thinkflow`. */
  dataDir?: string;
  /** `redis://…`: hand runs to `thinkflow worker` processes through BullMQ (needs a PostgreSQL store). */
  queue?: string;
  /** BullMQ queue name and key prefix (default `thinkflow-runs`, `thinkflow`). */
  queueName?: string;
  queuePrefix?: string;
  /** `postgres://…`: keep runs in PostgreSQL instead of SQLite. */
  pg?: string;
  /** The PostgreSQL schema of `pg`. Default `thinkflow`. */
  pgSchema?: string;
  /** Days finished runs are kept (`--retention-days`); wins over `config.retention.maxAgeDays`. 0 keeps them forever. */
  retentionDays?: number;
  /** With `queue`: how often the reconciler re-enqueues runs that have no job. Default 10000 ms. */
  recoveryIntervalMs?: number;
  /** Milliseconds running runs get to finish on shutdown before they are checkpointed. Default 10000. */
  shutdownTimeoutMs?: number;
  /** Where the server's log lines go (default stderr). Each line has secrets redacted first. */
  log?: (line: string) => void;
}

/** A listening server. `close()` stops accepting, lets runs finish or checkpoints them, and closes the store. */
export interface RunningServer {
  url: string;
  port: number;
  app: ThinkflowApp;
  runs: RunService;
  store: RunStore;
  /** Where online scores and datasets are kept, beside the runs. */
  evals: EvalStore;
  /** The background pruner of expired runs. */
  retention: Retention;
  close(): Promise<void>;
}

/** The API tokens: from the config plus `THINKFLOW_API_TOKENS` (comma-separated plain tokens). */
export function apiTokens(config: ThinkflowConfig, env = process.env): ApiToken[] {
  // Objects are kept as they are: a malformed one is refused, by position, at start-up.
  return [...(config.auth?.tokens ?? []), ...envApiTokens(env)].filter((t) => typeof t !== 'string' || t.length > 0);
}

/**
 * Where the server keeps `/v1/sessions` conversations unless the config names a store: `sessions.db` in
 * the data dir, a file of its own. `thinkflow chat` keeps its sessions in `thinkflow.db`; sharing them
 * with the server (so that an HTTP caller reads and writes the CLI's conversations) takes an explicit
 * `sessions: new SqliteSessionStore({ dataDir })` in the config.
 */
export function serverSessionsFile(dataDir = thinkflowHome()): string {
  return join(dataDir, 'sessions.db');
}

/** Opens the store the options and config ask for (PostgreSQL if `pg`, else the config's, else SQLite). */
export async function openStore(
  options: Pick<ServeOptions, 'pg' | 'pgSchema' | 'dataDir'>,
  config: StoreConfig | undefined,
): Promise<RunStore> {
  const store = options.pg
    ? new PostgresRunStore({ connectionString: options.pg, schema: options.pgSchema })
    : !config || ('type' in config && config.type === 'sqlite')
      ? new SqliteRunStore({ path: config?.path ?? join(options.dataDir ?? thinkflowHome(), 'runs.db') })
      : 'type' in config && config.type === 'postgres'
        ? new PostgresRunStore(config)
        : config;
  await store.init();
  return store;
}

/**
 * Opens the store of scores and datasets beside the runs: the same PostgreSQL schema, or the same SQLite
 * file (`evals.db` in the data dir when the config passes a store object of its own).
 */
export async function openEvalStore(
  options: Pick<ServeOptions, 'pg' | 'pgSchema' | 'dataDir'>,
  config: StoreConfig | undefined,
): Promise<EvalStore> {
  const dataDir = options.dataDir ?? thinkflowHome();
  const evals = options.pg
    ? new PostgresEvalStore({ connectionString: options.pg, schema: options.pgSchema })
    : config && 'type' in config && config.type === 'postgres'
      ? new PostgresEvalStore(config)
      : new SqliteEvalStore({
          path:
            !config || ('type' in config && config.type === 'sqlite')
              ? (config?.path ?? join(dataDir, 'runs.db'))
              : join(dataDir, 'evals.db'),
        });
  await evals.init();
  return evals;
}

/** The run store, then the eval store beside it: the run store makes a new SQLite file with its own page settings. */
async function openStores(
  options: Pick<ServeOptions, 'pg' | 'pgSchema' | 'dataDir'>,
  config: StoreConfig | undefined,
): Promise<{ store: RunStore; evals: EvalStore }> {
  const store = await openStore(options, config);
  return { store, evals: await openEvalStore(options, config) };
}

const OPEN_API_NOTICE =
  'thinkflow serve: no API tokens configured (auth.tokens, THINKFLOW_API_TOKENS or --token): the API is open to any local process (web pages are refused: docs/server.md#threat-model).';

/**
 * Serves the config's agents over HTTP: binds the port, resumes unfinished runs, starts the schedules.
 *
 * @example
 * const server = await serve({ config: await loadConfig('thinkflow.config.ts'), port: 8787 });
 * process.on('SIGTERM', () => server.close());
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { config } = options;
  const logs = serverLog(options);
  const { log } = logs;
  // A token no client can send is refused before anything opens.
  const tokens = checkTokenEntries([...apiTokens(config), ...(options.tokens ?? [])]);
  const hostname = options.hostname ?? '127.0.0.1';
  const { store, evals } = await openStores(options, config.store);
  const runs = scoredRuns(openRuns(options, store, logs), evals, options);
  const sessions = config.sessions ?? new SqliteSessionStore({ file: serverSessionsFile(options.dataDir) });
  const auth = { ...config.auth, tokens };
  if (!authRequired(auth)) log(OPEN_API_NOTICE);
  const { workflows, steps } = openWorkflows(options, store, logs);
  const app = createApp({
    runs,
    auth,
    security: {
      ...config.security,
      allowedHosts: [
        ...(config.security?.allowedHosts ?? []),
        ...(options.allowedHosts ?? []),
        ...boundHosts(hostname),
      ],
    },
    cors: config.cors,
    limits: config.limits,
    hooks: config.hooks,
    studio: config.studio,
    sessions,
    evals,
    replayAgents: config.agents ?? {},
    onError: (e) => logs.logError('thinkflow serve: a request failed: ', e),
    log,
    ...(workflows ? { workflows } : {}),
  });
  const retention = startRetention({
    store,
    config: {
      ...config.retention,
      ...(options.retentionDays === undefined ? {} : { maxAgeDays: options.retentionDays }),
    },
    onError: (e) => log(`thinkflow serve: pruning expired runs failed: ${String(e)}`),
  });
  const stopSchedules = startSchedules(config.schedules ?? [], runs, { onError: (e) => log(`schedule: ${String(e)}`) });
  const { server, port } = await listenHttp({
    fetch: app.fetch,
    port: options.port ?? 8787,
    hostname,
    requestTimeoutMs: config.limits?.requestTimeoutMs,
  });
  await resumeUnfinished(runs, workflows, log);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostname}:${port}`,
    port,
    app,
    runs,
    store,
    evals,
    retention,
    close() {
      closing ??= (async () => {
        stopSchedules();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await runs.close({ timeoutMs: options.shutdownTimeoutMs ?? 10_000 });
        // Open SSE streams would keep the server from closing.
        if ('closeAllConnections' in server) server.closeAllConnections();
        await stopped;
        await retention.stop();
        await workflows?.close({ timeoutMs: options.shutdownTimeoutMs ?? 10_000 });
        await steps?.close();
        await Promise.all([store.close(), evals.close()]);
        await sessions.close?.();
        logs.throttled.close();
      })();
      return closing;
    },
  };
}

/** Where the server's lines go: redacted, and an outage's repeated error once per interval with a count. */
interface ServerLog {
  log: (line: string) => void;
  logError: (prefix: string, error: unknown) => void;
  throttled: ReturnType<typeof createLogThrottle>;
}

function serverLog(options: Pick<ServeOptions, 'log'>): ServerLog {
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Errors can carry URLs with credentials or keys echoed by a provider: never log them as they are.
  const log = (line: string) => write(redactText(line));
  // An outage repeats the same error for every request and reconnect: one line per interval, with a count.
  const throttled = createLogThrottle(log);
  const logError = (prefix: string, e: unknown) =>
    isDependencyUnavailable(e)
      ? throttled(`${prefix}${e instanceof Error ? e.message : String(e)}`)
      : log(`${prefix}${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return { log, logError, throttled };
}

/** The run service: queue mode with `--queue` (workers execute the runs), else runs in this process. */
function openRuns(options: ServeOptions, store: RunStore, { log, logError }: ServerLog): RunService {
  const { config } = options;
  const agents = config.agents ?? {};
  if (!options.queue)
    return createLocalRuns({
      agents,
      store,
      limits: config.limits,
      onError: (e) => log(`thinkflow serve: ${String(e)}`),
    });
  return createQueueRuns({
    redisUrl: options.queue,
    queueName: options.queueName,
    prefix: options.queuePrefix,
    agents: Object.keys(agents),
    store,
    limits: config.limits,
    recoveryIntervalMs: options.recoveryIntervalMs,
    onError: (e) => logError('thinkflow serve: ', e),
    onRecovered: (n) =>
      log(`thinkflow serve: re-enqueued ${plural(n, 'run')} that had no job (PostgreSQL holds them).`),
  });
}

/** The run service, scoring a sample of finished runs in the background when the config has `scoring`. */
function scoredRuns(runs: RunService, evals: EvalStore, options: ServeOptions): RunService {
  const { scoring } = options.config;
  if (!scoring || Object.keys(scoring.agents).length === 0) return runs;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const otel = scoring.otel ? globalOtelScoreExporter() : undefined;
  const onScores =
    otel && scoring.onScores
      ? (scored: ScoredRun) => {
          otel(scored);
          scoring.onScores?.(scored);
        }
      : (otel ?? scoring.onScores);
  return scoreRuns(runs, {
    scoring: { ...scoring, onScores },
    evals,
    onError: (e) => log(redactText(`thinkflow serve: online scoring: ${e instanceof Error ? e.message : String(e)}`)),
  });
}

/**
 * The config's workflows run in this process, checkpointed next to the runs (same data dir, or `--pg`);
 * with `--queue` (and `--pg`, which the workers read and write too), their steps run on the workers.
 */
function openWorkflows(options: ServeOptions, store: RunStore, { logError }: ServerLog) {
  const { config } = options;
  const steps =
    options.queue && options.pg && config.workflows && Object.keys(config.workflows).length > 0
      ? queueStepDispatch({
          redisUrl: options.queue,
          queueName: options.queueName,
          prefix: options.queuePrefix,
          onError: (e) => logError('thinkflow serve: ', e),
        })
      : undefined;
  const workflows = openWorkflowRuns({
    dispatch: steps?.dispatch,
    workflows: config.workflows,
    pg: options.pg,
    pgSchema: options.pgSchema,
    dataDir: options.dataDir ?? thinkflowHome(),
    claims: store,
    onError: (e) => logError('thinkflow serve (workflows): ', e),
  });
  return { workflows, steps };
}

/** Resumes the runs and workflow runs a stopped server left unfinished, from their checkpoints. */
async function resumeUnfinished(
  runs: RunService,
  workflows: WorkflowRuns | undefined,
  log: (line: string) => void,
): Promise<void> {
  if ('resumeUnfinished' in runs && typeof runs.resumeUnfinished === 'function') {
    const resumed = await runs.resumeUnfinished();
    if (resumed > 0) log(`thinkflow serve: resuming ${plural(resumed, 'unfinished run')} from their checkpoints.`);
  }
  const recovered = (await workflows?.recover()) ?? 0;
  if (recovered > 0)
    log(`thinkflow serve: resuming ${plural(recovered, 'unfinished workflow run')} from their checkpoints.`);
}
