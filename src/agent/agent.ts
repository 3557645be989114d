import { randomUUID } from 'node:crypto';
import { type AgentEvent, ConfigError, type Message, type RunResult } from '../core/index.js';
import { getProtocol, type Language, type PromptContext, type Protocol } from '../protocols/index.js';
import { ToolRegistry } from '../tools/index.js';
import { createTraceWriter } from '../trace/index.js';
import type { AgentOptions, RunOptions } from './agent-options.js';
import { createEventChannel } from './event-channel.js';
import { executorRunner } from './executor-runner.js';
import { outputSchemaBlock } from './output-schema-block.js';
import { runLoop } from './run-loop.js';

/**
 * An agent: a model, tools and a protocol, run as a think → act → observe loop.
 *
 * @example
 * const agent = new Agent({ model: scriptedModel(['Final Answer: 4']), tools: [calculatorTool] });
 * const result = await agent.run('What is 2 + 2?');
 * console.log(result.status, result.output);
 */
export class Agent<T = unknown> {
  readonly name: string | undefined;
  readonly options: AgentOptions<T>;
  /** The agent's tools; register, enable or disable them at any time (each run takes a copy). */
  readonly tools: ToolRegistry;

  constructor(options: AgentOptions<T>) {
    if (!options?.model || typeof options.model.generate !== 'function') {
      throw new ConfigError({
        message:
          'new Agent() needs a model: pass { model: openaiCompatible(...) }, scriptedModel([...]) or resolveModel(spec).',
      });
    }
    if (options.maxSteps !== undefined && !(options.maxSteps >= 1)) {
      throw new ConfigError({ message: `maxSteps must be at least 1 (got ${options.maxSteps}).` });
    }
    this.options = options;
    this.name = options.name;
    this.tools = new ToolRegistry(options.tools ?? []);
  }

  /** The protocol a run will use: `auto` picks native when the model calls tools natively, else json. */
  get protocol(): Protocol {
    const choice = this.options.protocol ?? 'auto';
    return getProtocol(choice === 'auto' ? (this.options.model.capabilities.nativeTools ? 'native' : 'json') : choice);
  }

  /** Runs the agent on one input and resolves with the result; never rejects for model or tool failures. */
  async run(input: string, options: RunOptions = {}): Promise<RunResult<T>> {
    const runId = options.runId ?? randomUUID();
    const trace = this.options.traceFile ? createTraceWriter(this.options.traceFile) : undefined;
    const subscribers = [options.onEvent, trace?.write].filter((f): f is (e: AgentEvent) => void => !!f);
    const emit = (event: AgentEvent) => {
      for (const subscriber of subscribers) {
        try {
          subscriber(event);
        } catch {
          // A consumer that throws must not break the run.
        }
      }
    };
    try {
      const language = this.options.language ?? 'en';
      const run = { ...options, runId };
      const tools = executorRunner(this.tools, this.options as AgentOptions, run);
      const result = await runLoop(
        input,
        {
          model: this.options.model,
          protocol: this.protocol,
          tools,
          prompt: this.#promptContext(tools.specs(), language),
          language,
          options: this.options as AgentOptions,
          run,
        },
        emit,
      );
      return result as RunResult<T>;
    } finally {
      trace?.close();
    }
  }

  /** The run as a stream of events, ending with `run_end`. */
  stream(input: string, options: RunOptions = {}): AsyncIterable<AgentEvent> {
    const channel = createEventChannel();
    const onEvent = options.onEvent;
    this.run(input, {
      ...options,
      onEvent: (event) => {
        onEvent?.(event);
        channel.push(event);
      },
    }).then(
      () => channel.close(),
      (error: unknown) => channel.fail(error),
    );
    return channel;
  }

  /** The exact messages the first model call of a run would send: printing them is the first debugging step. */
  prompt(input: string, options: { history?: Message[] } = {}): Message[] {
    const protocol = this.protocol;
    const language = this.options.language ?? 'en';
    const system = protocol.systemPrompt(this.#promptContext(this.tools.specs() as PromptContext['tools'], language));
    return [{ role: 'system', content: system }, ...(options.history ?? []), { role: 'user', content: input }];
  }

  #promptContext(tools: PromptContext['tools'], language: Language): PromptContext {
    const context = this.options.outputSchema ? [outputSchemaBlock(this.options.outputSchema, language)] : undefined;
    return { instructions: this.options.instructions, tools, language, context };
  }
}
