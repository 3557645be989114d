import { withFields } from '../../core/index.js';
import { type ResolvedSkills, shownSkillWarnings } from '../../skills/index.js';
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

/** The problems found before a run starts, emitted as `warning` events after `run_start`: memory recall, skills, routing. */
export function startWarnings(
  recall: string | undefined,
  skills: ResolvedSkills['warnings'],
  routing?: { code: string; message: string },
) {
  if (!recall && skills.length === 0 && !routing) return undefined;
  // The first 50, and one saying how many more: every run would start with all of them.
  const { lines, more } = shownSkillWarnings(skills);
  const warnings = lines.map((message) => ({ code: 'skill', message }));
  if (more > 0) {
    const message = `${more} more skill warnings are not repeated here; loadSkills(folders, { onWarning }) reports every one.`;
    warnings.push({ code: 'skill', message });
  }
  return [...(recall ? [{ code: 'memory_recall', message: recall }] : []), ...warnings, ...(routing ? [routing] : [])];
}
