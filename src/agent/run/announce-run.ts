import { withFields } from '../../core/index.js';
import type { LoopConfig } from './loop-config.js';
import { type Emit, event, type RunState } from './run-state.js';

/** The run's first events: `run_start` (unless silent), the memories recalled, and the warnings found before the loop. */
export function announceRun(state: RunState, config: LoopConfig, emit: Emit): void {
  const { model, protocol, options } = config;
  if (!state.silent) {
    const tools = config.tools.registry.list().map((t) => t.name);
    const start = { input: state.input, agent: options.name, model: model.id, protocol: protocol.name, tools };
    emit(event(state, 'run_start', state.forkedFrom ? withFields(start, { forkedFrom: state.forkedFrom }) : start));
  }
  if (config.recalled?.length) emit(event(state, 'memory_recall', { memories: config.recalled }));
  for (const w of config.warnings ?? []) emit(event(state, 'warning', w));
}
