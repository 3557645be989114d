import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../core/index.js';
import {
  type DataRow,
  type ExperimentStore,
  fetchDataset,
  formatExperiment,
  loadDataset,
  loadExperiment,
  type RunExperimentOptions,
  runExperiment,
  type Task,
} from '../eval/index.js';
import { loadConfig } from '../server/index.js';
import type { EvalFlags, EvalIo } from './eval-flags.js';
import { writeExperimentReports } from './eval-outputs.js';
import { EXIT_CODES } from './exit-codes.js';
import { createProgressBar } from './progress-bar.js';

/**
 * What a `suite.ts` exports (default): one experiment, or a list. `data` may be a dataset path, beside the
 * suite, or the URL of a server's dataset (`http://…/v1/datasets/:id`, read with `fetchDataset`).
 */
export type EvalDefinition = Omit<RunExperimentOptions, 'data' | 'store'> & { data: readonly DataRow[] | string };

/**
 * Imports a TypeScript or JavaScript suite: under tsx (or Node's type stripping) natively, else through
 * jiti, as the server loads `thinkflow.config.ts`.
 */
async function importSuite(file: string): Promise<EvalDefinition[]> {
  let module: { default?: unknown };
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    const { createJiti } = await import('jiti');
    module = await createJiti(import.meta.url, {
      fsCache: false,
      moduleCache: false,
      nativeModules: ['thinkflow'],
    }).import(file);
  }
  const value = module.default;
  const list = Array.isArray(value) ? value : [value];
  if (!list.length || list.some((d) => !d || typeof d !== 'object' || !('task' in d) || !('scorers' in d))) {
    throw new ConfigError({
      message: `${file} must export default { name, data, task, scorers } (or a list of them), e.g. export default { name: 'support', data: 'cases.jsonl', task: agent, scorers: [contains()] }.`,
    });
  }
  return list as EvalDefinition[];
}

/** An agent's name becomes the config's agent (a factory is called once per case, for fresh state). */
async function resolveTask(task: EvalDefinition['task'], flags: EvalFlags): Promise<Task> {
  if (typeof task !== 'string') return task;
  const config = await loadConfig(flags.config);
  const entry = config.agents[task];
  if (!entry) {
    throw new ConfigError({
      message: `No agent "${task}" in ${flags.config ?? 'thinkflow.config.ts'} (it has: ${Object.keys(config.agents).join(', ') || 'none'}).`,
    });
  }
  if (typeof entry !== 'function') return entry;
  return async (input) => (await entry()).run(typeof input === 'string' ? input : JSON.stringify(input));
}

/** Runs each experiment a TypeScript suite defines, prints its table and writes the reports; exit 1 when a trial failed. */
export async function evalTsSuite(file: string, flags: EvalFlags, io: EvalIo, store: ExperimentStore): Promise<number> {
  const definitions = await importSuite(resolve(file));
  let code: number = EXIT_CODES.done;
  for (const definition of definitions) {
    const data =
      typeof definition.data !== 'string'
        ? definition.data
        : /^https?:\/\//.test(definition.data)
          ? await fetchDataset(definition.data)
          : loadDataset(
              isAbsolute(definition.data) ? definition.data : resolve(dirname(resolve(file)), definition.data),
            );
    const trials = flags.repeat ? Number(flags.repeat) : definition.trials;
    const bar = createProgressBar({
      sink: { write: io.stderr, tty: io.stderrIsTTY === true },
      label: `eval ${definition.name}`,
      total: data.length * (trials ?? 1),
    });
    const experiment = await runExperiment({
      ...definition,
      data,
      task: await resolveTask(definition.task, flags),
      trials,
      concurrency: flags.concurrency ? Number(flags.concurrency) : definition.concurrency,
      store,
      resume: flags.resume,
      onProgress: (p) => bar.update(p.done, `${p.passed} passed · last ${p.caseId} ${p.pass ? '✓' : '✗'}`),
    });
    bar.finish();
    const full = { ...(await loadExperiment(store, experiment.meta.id)), summary: experiment.summary };
    io.stdout(
      flags.json ? `${JSON.stringify(experiment, null, 2)}\n` : await formatExperiment(full, { color: io.color }),
    );
    await writeExperimentReports(store, experiment, flags);
    if (experiment.summary.passed < experiment.summary.trials) code = EXIT_CODES.noAnswer;
  }
  return code;
}
