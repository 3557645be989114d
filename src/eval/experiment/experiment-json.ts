import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { ConfigError, errorMessage, withoutBom } from '../../core/index.js';
import type { ExperimentTrials } from './compare-experiments.js';
import type { ExperimentMeta, ExperimentStore, ExperimentSummary, TrialRecord } from './experiment-types.js';

/** An experiment as one JSON document: `{ meta, summary, trials }`. */
export interface ExperimentJson {
  meta: ExperimentMeta;
  summary?: ExperimentSummary;
  trials: TrialRecord[];
}

/** An experiment of a store, with its trials read lazily (for `compareExperiments`, reports and exports). */
export async function loadExperiment(
  store: ExperimentStore,
  id: string,
): Promise<ExperimentTrials & { summary?: ExperimentSummary }> {
  const found = await store.getExperiment(id);
  if (!found)
    throw new ConfigError({ message: `No experiment "${id}" in the store. List them with \`thinkflow eval list\`.` });
  return { meta: found.meta, summary: found.summary, trials: store.trials(id) };
}

/** Writes an experiment to a JSON file, trial by trial (the file is valid JSON; no trial list is built in memory). */
export async function writeExperimentJson(
  experiment: ExperimentTrials & { summary?: ExperimentSummary },
  path: string,
): Promise<void> {
  const fd = openSync(path, 'w');
  try {
    writeSync(
      fd,
      `{"meta":${JSON.stringify(experiment.meta)},"summary":${JSON.stringify(experiment.summary ?? null)},"trials":[`,
    );
    let first = true;
    for await (const trial of experiment.trials) {
      writeSync(fd, `${first ? '\n' : ',\n'}${JSON.stringify(trial)}`);
      first = false;
    }
    writeSync(fd, '\n]}\n');
  } finally {
    closeSync(fd);
  }
}

/** Reads an experiment JSON file written by `writeExperimentJson` (or `thinkflow eval run -o`). */
export function readExperimentJson(path: string): ExperimentTrials & { summary?: ExperimentSummary } {
  let value: ExperimentJson;
  try {
    value = JSON.parse(withoutBom(readFileSync(path, 'utf8'))) as ExperimentJson;
  } catch (error) {
    throw new ConfigError({ message: `Cannot read the experiment ${path}: ${errorMessage(error)}` });
  }
  if (!value?.meta || !Array.isArray(value.trials)) {
    throw new ConfigError({ message: `${path} is not an experiment file: expected { meta, summary, trials }.` });
  }
  return { meta: value.meta, summary: value.summary ?? undefined, trials: value.trials };
}
