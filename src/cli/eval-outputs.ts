import { writeFileSync } from 'node:fs';
import {
  type Experiment,
  type ExperimentStore,
  loadExperiment,
  renderExperimentHtml,
  renderJunit,
  writeExperimentJson,
} from '../eval/index.js';

/** The report files an experiment writes: `-o` JSON (streamed trial by trial), `--html`, `--junit`. */
export async function writeExperimentReports(
  store: ExperimentStore,
  experiment: Experiment,
  flags: { output?: string; html?: string; junit?: string },
): Promise<void> {
  const fresh = async () => ({ ...(await loadExperiment(store, experiment.meta.id)), summary: experiment.summary });
  if (flags.output) await writeExperimentJson(await fresh(), flags.output);
  if (flags.html) writeFileSync(flags.html, await renderExperimentHtml(await fresh()));
  if (flags.junit) writeFileSync(flags.junit, await renderJunit(experiment.meta, (await fresh()).trials));
}
