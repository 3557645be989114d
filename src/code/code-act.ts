import { codeProtocol, type Protocol } from '../protocols/index.js';
import type { AnyTool } from '../tools/index.js';
import { type CodeModeOptions, codeTool } from './code-mode.js';

/** The code protocol with the `run_code` tool its replies run through: what `codeAct()` returns. */
export interface CodeActProtocol extends Protocol {
  /** The tools the agent registers beside its own: `run_code`, over the run's tools, with `final_answer`. */
  readonly tools: readonly AnyTool[];
}

/**
 * The code protocol (CodeAct) for `new Agent({ protocol })`: the prompt declares the tools as TypeScript,
 * each reply is a thought and one fenced JavaScript block, which runs as a `run_code` call in the sandbox
 * (QuickJS by default; pass `sandbox` in a browser or a Worker) over the run's own tools, and
 * `final_answer(value)` inside it ends the run. Budgets are those of `codeMode`.
 *
 * @example
 * const agent = new Agent({ model, protocol: codeAct(), tools: [price] });
 */
export function codeAct(options: Omit<CodeModeOptions, 'name'> = {}): CodeActProtocol {
  return { ...codeProtocol, tools: [codeTool({ ...options, finalAnswer: true })] };
}

/**
 * A protocol named in a CLI flag or a config file (`--protocol code`, `protocol: code`) as `new Agent()`
 * takes it: `code` is `codeAct()`, the other names pass as they are.
 */
export function protocolOption<P extends string>(name: P): Exclude<P, 'code'> | CodeActProtocol {
  return name === 'code' ? codeAct() : (name as Exclude<P, 'code'>);
}
