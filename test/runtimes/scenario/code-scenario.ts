/**
 * The code-mode part of the runtime scenario: an agent whose only tool is `run_code` (codeMode over two
 * tools) streams from the local server; the model writes one program that calls both tools, and then
 * answers. Where thinkflow cannot load QuickJS by itself (a browser, a Worker) the app passes the module
 * it loaded, and the scenario also reports the error a user gets without one.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { z } from 'zod';
import { codeMode, quickJsSandbox } from '../../../src/entries/code.js';
import { Agent, type AgentEvent, defineTool, type Model, scriptedModel } from '../../../src/index.js';

/** How the runtime's app gets QuickJS: nothing where thinkflow loads it (Node, Bun, Deno). */
export interface CodeSetup {
  /** The QuickJS module the app loaded itself (a browser from a served `.wasm`, a Worker from a wasm module). */
  module?: () => Promise<QuickJSWASMModule>;
  /**
   * A loader that cannot work here (a Worker compiling from bytes, a page pointing at a missing `.wasm`):
   * the scenario reports what the user sees.
   */
  unloadable?: () => Promise<QuickJSWASMModule>;
}

/** What the code part saw. */
export interface CodeReport {
  status: string;
  output: string;
  /** The `run_code` call's observation: the program's log and what it returned. */
  observation: string;
  /** Each call the program made, as `tool output`, when its parent is the `run_code` call. */
  calls: string[];
  /** `codeMode(tools)` with no module, where thinkflow cannot load QuickJS by itself: the error it throws. */
  setupError?: string;
  /** The observation of a program run with the `unloadable` loader. */
  loadError?: string;
  error?: string;
}

/** The program the scripted model writes: two tools, a log line and a returned value. */
export const PROGRAM = `const w = await tools.weather({ city: 'Paris' });
const f = await tools.fahrenheit({ celsius: w.tempC });
console.log(w.sky);
return w.city + ': ' + f.fahrenheit + ' °F';`;

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  output: z.object({ city: z.string(), tempC: z.number(), sky: z.string() }),
  run: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});

const fahrenheit = defineTool({
  name: 'fahrenheit',
  description: 'Converts degrees Celsius to Fahrenheit.',
  input: z.object({ celsius: z.number() }),
  output: z.object({ fahrenheit: z.number() }),
  run: ({ celsius }) => ({ fahrenheit: Math.round((celsius * 9) / 5 + 32) }),
});

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Runs the code part on `model`, which first writes `PROGRAM` in a `run_code` call `code1`, then answers. */
export async function runCodePart(model: Model, setup: CodeSetup = {}): Promise<CodeReport> {
  const tools = [weather, fahrenheit];
  let setupError: string | undefined;
  if (setup.module) {
    try {
      codeMode(tools);
    } catch (error) {
      setupError = (error as Error).message;
    }
  }
  const sandbox = setup.module ? quickJsSandbox({ module: setup.module }) : undefined;
  const agent = new Agent({ model, tools: [codeMode(tools, { sandbox })], maxSteps: 4 });
  const events = await drain(agent.stream('What is the weather in Paris, in Fahrenheit?'));
  const end = events.find((e) => e.type === 'run_end');
  const observation = events.find((e) => e.type === 'tool_end' && e.callId === 'code1');
  const report: CodeReport = {
    status: end?.type === 'run_end' ? end.status : 'none',
    output: end?.type === 'run_end' ? end.output : '',
    observation: observation?.type === 'tool_end' ? observation.output : '',
    calls: events.flatMap((e) =>
      e.type === 'tool_end' && e.parentCallId === 'code1' ? [`${e.tool} ${e.output}`] : [],
    ),
    error: end?.type === 'run_end' ? end.error?.message : undefined,
  };
  if (setupError !== undefined) report.setupError = setupError;
  if (setup.unloadable) report.loadError = await observeUnloadable(setup.unloadable);
  return report;
}

/** What a user sees when QuickJS cannot load: the `run_code` call's observation. */
async function observeUnloadable(unloadable: () => Promise<QuickJSWASMModule>): Promise<string> {
  const model = scriptedModel([
    { text: '', toolCalls: [{ id: 'b1', name: 'run_code', arguments: JSON.stringify({ code: 'return 1;' }) }] },
    'Done.',
  ]);
  const tool = codeMode([weather], { sandbox: quickJsSandbox({ module: unloadable }) });
  const events = await drain(new Agent({ model, tools: [tool], maxSteps: 3 }).stream('Run it.'));
  const end = events.find((e) => e.type === 'tool_end' && e.callId === 'b1');
  return end?.type === 'tool_end' ? end.output : '';
}
