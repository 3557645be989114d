/**
 * `thinkflow/testing`: models and tools for tests and demos, beside `scriptedModel` (in the root).
 * `demoModel()` is the keyless model `--model demo` runs, with its five demo tools; `chaosModel` wraps a
 * model and corrupts its replies in the ways real models do, to test a protocol's repairs.
 */
export {
  CHAOS_KINDS,
  type ChaosKind,
  type ChaosModel,
  type ChaosModelOptions,
  type ChaosRecord,
  chaosModel,
  demoModel,
} from '../llm/index.js';
export { demoHolidayTool, demoMovieTool, demoSearchTool, demoTools, demoWeatherTool } from '../tools/index.js';
