import type { z } from 'zod';
import {
  type AgentEvent,
  ConfigError,
  type Message,
  newRunId,
  type RunResult,
  type Step,
  type ToolSpec,
} from '../core/index.js';
import { costOf } from '../llm/index.js';
import { coreProtocol, type Language, type PromptContext, type Protocol, renderExample } from '../protocols/index.js';
import type { ResolvedSkills, Skill } from '../skills/index.js';
import { hasSkills, provideSkillKit, resolveSkills, skillKit } from '../skills/index.js';
import { type ParentRun, type Tool, ToolRegistry } from '../tools/index.js';
import { createTraceWriter } from '../trace/index.js';
import { provideWorkspaceKit, workspaceKit } from '../workspace/index.js';
import {
  createRunTools,
  observationLimitFor,
  observationTokensFor,
  type RunBuiltin,
  recallResultTool,
  runBuiltins,
  searchToolsBuiltin,
  skillBuiltins,
} from './calls/index.js';
import { type ForkOptions, type ForkSource, forkCheckpoint, messagesBefore } from './durable/index.js';
import type { ToolRouter } from './routing/index.js';
import type { AgentOptions, LoopConfig, PromptOptions, RunOptions } from './run/index.js';
import {
  addChildUsage,
  type BuiltinsFor,
  createRunState,
  event,
  fanOut,
  featureFix,
  type Gathered,
  loadOlderFeature,
  type Made,
  type Routing,
  remainingBudget,
  routingFor,
  type Setup,
  startWarnings,
  streamRun,
} from './run/index.js';
import { runLoop } from './run-loop.js';
import {
  announceQuestions,
  contextWindowFor,
  type FirstRequest,
  firstRequest,
  journalQuestions,
  outputResponseFormat,
  outputSchemaBlock,
  promptHead,
  recallFor,
  sessionTurn,
  storeOutcome,
} from './step/index.js';
import { type AsToolOptions, agentAsTool, handoffTools, runHandoff } from './team/index.js';

const ignoreEvent = () => {};
const NO_RECALL: Awaited<ReturnType<typeof recallFor>> = { block: '', memories: [] };

const NO_SKILLS: ResolvedSkills = Object.freeze({ skills: [], warnings: [] });

/** Two prompt blocks, the empty ones left out (`[a, b].filter(Boolean).join`, without the arrays each run). */
function joinBlocks(a: string, b: string | undefined): string {
  return a && b ? `${a}\n\n${b}` : a || b || '';
}

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
    this.#handoffs = handoffTools(options.handoffs);
    // No handoffs (most agents, often made per request): the loop's handoff check is skipped.
    this.#handoffNames = this.#handoffs.size ? new Set(this.#handoffs.keys()) : undefined;
    // The workspace's tools come with the factory that made it (virtualWorkspace, sandboxWorkspace); for a
    // Workspace of your own the first run loads them (#older).
    const kit = options.workspace && workspaceKit();
    this.#workspaceAdded = !!kit;
    const workspace = kit
      ? kit.tools(options.workspace!, { language: options.language, policy: options.workspacePolicy })
      : [];
    // The user's tools as given when nothing is added to them: no copies for an agent made per request.
    this.tools = new ToolRegistry(
      workspace.length || this.#handoffs.size
        ? [...(options.tools ?? []), ...workspace, ...[...this.#handoffs.values()].map((h) => h.tool)]
        : (options.tools ?? []),
    );
    // A protocol object may bring tools (CodeAct's run_code: each reply's code block runs as a call of it).
    const protocol = options.protocol;
    if (typeof protocol === 'object' && protocol.name === 'code' && !protocol.tools?.length) {
      throw new ConfigError({
        message:
          "The code protocol runs each reply as a run_code call: pass protocol: codeAct() from 'thinkflow/code'.",
      });
    }
    if (typeof protocol === 'object') for (const tool of protocol.tools ?? []) this.tools.register(tool);
  }

  readonly #handoffs: ReturnType<typeof handoffTools>;
  readonly #handoffNames: Set<string> | undefined;
  #workspaceAdded: boolean;
  /** `protocol: 'code'`: codeAct(), loaded on the first run. */
  #codeAct: Protocol | undefined;
  /** The older shapes' loading: null once there is none to do. */
  #olderLoaded: Promise<void> | null | undefined;

  /** The protocol a run will use: `auto` picks native when the model calls tools natively, else json. */
  get protocol(): Protocol {
    const choice = this.options.protocol ?? 'auto';
    if (typeof choice === 'object') return choice;
    if (choice === 'code') {
      if (this.#codeAct) return this.#codeAct;
      throw new ConfigError({ message: `protocol: 'code' loads on the first run; before it, ${featureFix('code')}.` });
    }
    return coreProtocol(choice === 'auto' ? (this.options.model.capabilities.nativeTools ? 'native' : 'json') : choice);
  }

  /** Runs the agent on one input and resolves with the result; never rejects for model or tool failures. */
  async run(input: string, options: RunOptions = {}): Promise<RunResult<T>> {
    const runId = options.runId ?? newRunId();
    const trace = this.options.traceFile ? createTraceWriter(this.options.traceFile) : undefined;
    // A run nobody listens to emits into a shared no-op: no subscriber array or fan-out closure per run.
    const silent = !options.onEvent && !trace?.write;
    const emit = silent
      ? ignoreEvent
      : fanOut([options.onEvent, trace?.write].filter((f): f is (e: AgentEvent) => void => !!f));
    try {
      const setup = this.#setup(input, options, { runId, emit, silent });
      const { state, config } = setup instanceof Promise ? await setup : setup;
      const result = await runLoop(state, config, emit);
      if (options.sessionId)
        await this.options.sessions!.append(options.sessionId, sessionTurn(input, result, options.attachments));
      return result as RunResult<T>;
    } finally {
      trace?.close();
    }
  }

  /**
   * The request the first model call of a run on `input` would send: its messages, its tools (`tools` for
   * the native protocol, `promptTools` for the text ones, which list them in the system prompt), the output
   * format, stop sequences and sampling. It is made by the run's own code (skills catalogue, memory recall,
   * routed tools and built-ins, output schema, examples, history or session, attachments, `beforeStep`),
   * with no model call and no event. Input guardrails are not run.
   *
   * @example
   * const request = await agent.firstRequest('What is 2 + 2?');
   * console.log(request.messages[0].content, (request.tools ?? request.promptTools)?.map((t) => t.name));
   */
  async firstRequest(input: string, options: PromptOptions = {}): Promise<FirstRequest> {
    const { state, config } = await this.#setup(input, options, { runId: newRunId(), emit: ignoreEvent, silent: true });
    return firstRequest(state, config);
  }

  /**
   * The exact messages the first model call of a run on `input` would send (`firstRequest(input).messages`):
   * printing them is the first debugging step.
   *
   * @example
   * for (const message of await agent.prompt('What is 2 + 2?')) console.log(message.role, message.content);
   */
  async prompt(input: string, options: PromptOptions = {}): Promise<Message[]> {
    return (await this.firstRequest(input, options)).messages;
  }

  /** The system message, earlier turns and question of a run on `input` (a fork's edit function sees them). */
  async #head(input: string, options: PromptOptions): Promise<Message[]> {
    const { state, config } = await this.#setup(input, options, { runId: newRunId(), emit: ignoreEvent, silent: true });
    const { system, history, question } = promptHead(state, config);
    return [system, ...history, question];
  }

  /**
   * Everything a run is made of, before its first step: its state and its loop config (model, protocol,
   * tools, and the prompt with every block the options add). `run()` and `firstRequest()` both start here,
   * so what the first request shows is what the run sends. A new prompt block goes into `#promptContext`.
   */
  #setup(input: string, options: RunOptions, made: Made): Setup | Promise<Setup> {
    const gathered = this.#gather(input, options);
    return gathered instanceof Promise
      ? gathered.then((g) => this.#build(input, options, made, g))
      : this.#build(input, options, made, gathered);
  }

  /**
   * What a run needs that may have to be awaited: the older option shapes loaded, a session's history,
   * recalled memories, skills and a tool router. An agent with none of them gets them at once, not as a
   * promise (a run's setup then waits for nothing; docs/loop.md).
   */
  #gather(input: string, options: RunOptions): Gathered | Promise<Gathered> {
    const older = this.#older();
    if (!older && !options.sessionId && !this.options.memory && !hasSkills(this.options.skills)) {
      const routing = this.#router();
      const gathered = (r: Routing): Gathered => ({
        history: options.history,
        recall: NO_RECALL,
        resolved: NO_SKILLS,
        routing: r,
      });
      // The router's loading, when it loads, is this run's one wait (asking again would leave a rejection unheard).
      return routing instanceof Promise ? routing.then(gathered) : gathered(routing);
    }
    return this.#gatherAsync(input, options, older);
  }

  async #gatherAsync(input: string, options: RunOptions, older: Promise<void> | undefined): Promise<Gathered> {
    // Before the run's copy of the tools is taken: the older shapes may add some (run_code, the workspace's).
    await older;
    const sessions = options.sessionId ? this.options.sessions : undefined;
    if (options.sessionId && !sessions) {
      throw new ConfigError({
        message: 'run(input, { sessionId }) needs a session store: new Agent({ sessions: new SqliteSessionStore() }).',
      });
    }
    const history = sessions
      ? [...(await sessions.load(options.sessionId!)), ...(options.history ?? [])]
      : options.history;
    const recall = this.options.memory ? await recallFor(this.options.memory, input, options.signal) : NO_RECALL;
    const resolved = hasSkills(this.options.skills) ? await this.#skills() : NO_SKILLS;
    // Skills made by hand (not by loadSkills): the catalogue and skill tools are loaded here.
    if (resolved.skills.length && !skillKit()) {
      provideSkillKit((await loadOlderFeature('skills', 'Skills made by hand')).SKILL_KIT);
    }
    return { history, sessions: !!sessions, recall, resolved, routing: await this.#router() };
  }

  /** The run's state and loop config from what `#gather` found. */
  #build(input: string, options: RunOptions, made: Made, gathered: Gathered): Setup {
    // The run's id comes apart from its options: a copy of them with it costs more than the rest of the setup.
    const { runId, emit, silent } = made;
    const language = this.options.language ?? 'en';
    const { recall, routing } = gathered;
    const { skills, warnings } = gathered.resolved;
    // The run's own options unless a session adds history (a second spread copy costs ~1 µs a run on Node 20).
    const run = gathered.sessions ? { ...options, history: gathered.history } : options;
    const catalog = skills.length ? skillKit()!.catalog(skills, this.options.skillCatalogTokens) : undefined;
    const { parentRunId, resume } = options;
    const state = createRunState({ runId, input, parentRunId, resume, silent });
    const budget = options.budget ?? this.options.budget;
    // Agents run as tools nest under this run: they see its remaining budget and add to its usage.
    const parent: ParentRun = {
      runId,
      emit,
      remainingBudget: () => remainingBudget(budget, state),
      addUsage: (usage) => addChildUsage(state, usage),
      model: this.options.model,
    };
    // A run's own output schema stands in for the agent's (a server request's `response_format`).
    const runAgentOptions = (
      options.outputSchema ? { ...this.options, outputSchema: options.outputSchema } : this.options
    ) as AgentOptions;
    // Every question the run's tools put to a person is announced in the event stream; under a durable
    // engine it is the journal's durable wait.
    const { journal } = run;
    const asking = journal
      ? journalQuestions({ state, emit, journal })
      : announceQuestions({ state, emit, approve: run.approve ?? this.options.approve, ask: run.ask });
    // Named fields, not `{ ...run, ...asking }`: a copy of every run option on each run (docs/loop.md).
    const tools = createRunTools(
      this.tools,
      runAgentOptions,
      { runId, tools: run.tools, approve: asking.approve, ask: asking.ask, journal },
      parent,
    );
    const protocol = this.protocol;
    const { router, warning: routingWarning } = routing;
    const builtins = this.#builtins({ tools, router, state, emit, skills, listedAll: catalog?.listedAll ?? true });
    const config: LoopConfig = {
      model: this.options.model,
      protocol,
      tools,
      prompt: this.#promptContext(
        tools.registry.specs() as ToolSpec[],
        language,
        joinBlocks(recall.block, catalog?.text),
        runAgentOptions.outputSchema,
      ),
      responseFormat: protocol.name === 'native' ? this.#responseFormat(options.outputSchema) : undefined,
      language,
      options: runAgentOptions,
      run,
      context: contextWindowFor(this.options as AgentOptions),
      recalled: recall.memories,
      warnings: startWarnings(recall.warning, warnings, routingWarning),
      router,
      builtins,
      skills,
      handoffTools: this.#handoffNames,
      handoff: (tool, step, scope) =>
        runHandoff(this.#handoffs.get(tool)!, { from: this.name, history: run.history }, step, scope),
      // No promise unless there is a memory to store the outcome in (endRun then waits for nothing).
      onFinish: (r, scope) => {
        const cost = costOf(this.options.model.id, r.usage);
        if (cost !== undefined) r.usage.costUsd = cost;
        return this.options.memory ? storeOutcome(this.options.memory, r, scope) : undefined;
      },
    };
    return { state, config };
  }

  /**
   * The run as a stream of events, ending with `run_end`. Leaving the stream early (`break`, `return()`,
   * a throw in the loop body) aborts the run: no further model or tool call, and running tools see their signal.
   *
   * @example
   * for await (const event of agent.stream('What is 2 + 2?')) {
   *   if (event.type === 'tool_end') console.log(event.tool, event.output);
   * }
   */
  stream(input: string, options: RunOptions = {}): AsyncIterable<AgentEvent> {
    return streamRun(options, (streamed) => this.run(input, { ...options, ...streamed }));
  }

  /**
   * Starts a new run from step `fromStep` of a checkpointed run (time travel): the steps before it are
   * carried over as they were, with their usage (no model call, no tool call), and the run goes on from
   * there with this agent, under a new id, `result.forkedFrom` naming its source. `messages` replaces
   * what the model sees at that step, or edits it. The source is not changed. Rejects with a `ForkError`
   * for a missing run, a step it does not have, or edited messages that are not messages.
   *
   * @example
   * const checkpoints: Checkpoint[] = [];
   * await agent.run('What is 2 + 2?', { onCheckpoint: (c) => void checkpoints.push(c) });
   * const again = await agent.fork(checkpoints.at(-1), {
   *   fromStep: 1,
   *   messages: (seen) => [...seen.slice(0, -1), { role: 'tool', toolCallId: 'c1', content: '5' }],
   * });
   */
  async fork(from: ForkSource | undefined, options: ForkOptions): Promise<RunResult<T>> {
    const { fromStep, messages, ...run } = options;
    await this.#older();
    const runId = run.runId ?? newRunId();
    // What the model saw at `fromStep`, for an edit function: the run's head as a run makes it, then the steps.
    const head = typeof messages === 'function' && from ? await this.#head(from.input, run) : [];
    const language = this.options.language ?? 'en';
    const project = (step: Step) => this.protocol.stepMessages(step, language);
    const seen = () => messagesBefore(from!, fromStep, { head, project });
    const resume = forkCheckpoint(from, { runId, fromStep, messages, seen });
    return this.run(resume.input, { ...run, runId, resume });
  }

  /**
   * This agent as a tool another agent can call; the child's events nest under the caller's.
   *
   * @example
   * const researcher = new Agent({ name: 'researcher', model, tools: [search] });
   * const lead = new Agent({ model, tools: [researcher.asTool({ name: 'research', description: 'Finds facts on the web' })] });
   */
  asTool(options: AsToolOptions): Tool<{ task: string }, string> {
    return agentAsTool(this as Agent, options);
  }

  #promptContext(
    tools: PromptContext['tools'],
    language: Language,
    recalled = '',
    outputSchema: z.ZodType | undefined = this.options.outputSchema,
  ): PromptContext {
    const schemaBlock = outputSchema ? outputSchemaBlock(outputSchema, language) : '';
    // No arrays for an agent with no blocks to add (most; often made per request).
    const context = recalled || schemaBlock ? [recalled, schemaBlock].filter(Boolean) : undefined;
    const examples = this.options.examples?.map((e) => renderExample(e, { protocol: this.protocol.name, language }));
    const { workspace } = this.options;
    const instructions = workspace
      ? [this.options.instructions, workspaceKit()!.prompt(workspace, language)].filter(Boolean).join('\n\n')
      : this.options.instructions;
    const prompt: PromptContext = { instructions, tools, language, context };
    if (examples?.length) prompt.examples = examples;
    return prompt;
  }

  /** The output schema as a structured-output request, built once for the agent's own schema. */
  #responseFormat(runSchema?: z.ZodType) {
    if (runSchema) return outputResponseFormat(runSchema);
    const schema = this.options.outputSchema;
    if (!schema) return undefined;
    this.#responseFormatCache ??= outputResponseFormat(schema);
    return this.#responseFormatCache;
  }
  #responseFormatCache: ReturnType<typeof outputResponseFormat> | undefined;

  /** The agent's tool router for a run (see `routingFor`). */
  #router(): Routing | Promise<Routing> {
    const { toolRouting: routing, model } = this.options;
    return routingFor({ routing, model, toolCount: this.tools.specs().length, cache: this.#routerCache });
  }

  readonly #routerCache: { loaded?: Promise<ToolRouter> } = {};

  /**
   * Option shapes from before code mode and the workspace tools had their own imports: `protocol: 'code'`
   * (codeAct() and its run_code) and a Workspace of your own (the workspace tools), loaded once, on the first run.
   */
  #older(): Promise<void> | undefined {
    if (this.#olderLoaded === undefined) {
      const { protocol, workspace } = this.options;
      // Nothing older to load: every later run waits for nothing.
      this.#olderLoaded = protocol === 'code' || (workspace && !this.#workspaceAdded) ? this.#loadOlder() : null;
    }
    return this.#olderLoaded ?? undefined;
  }

  async #loadOlder(): Promise<void> {
    const { protocol, workspace } = this.options;
    if (protocol === 'code') {
      const { codeAct } = await loadOlderFeature('code', "protocol: 'code'");
      const codeProtocol = codeAct();
      for (const tool of codeProtocol.tools) this.tools.register(tool);
      this.#codeAct = codeProtocol;
    }
    if (workspace && !this.#workspaceAdded) {
      if (!workspaceKit()) {
        provideWorkspaceKit((await loadOlderFeature('workspace', 'A Workspace of your own')).AGENT_KIT);
      }
      const options = { language: this.options.language, policy: this.options.workspacePolicy };
      for (const tool of workspaceKit()!.tools(workspace, options)) this.tools.register(tool);
      this.#workspaceAdded = true;
    }
  }

  /** The agent's skills, loaded from their folders on the first run, with the loader's warnings (each run repeats them). */
  #skills(): Promise<ResolvedSkills> {
    this.#skillsCache ??= resolveSkills(this.options.skills ?? []);
    return this.#skillsCache;
  }

  #skillsCache: Promise<ResolvedSkills> | undefined;

  /** The tools the loop adds for this run: `search_tools` when routing is on, the skill tools. Registered in the run's registry. */
  #builtins(run: BuiltinsFor): RunBuiltin[] {
    const { tools, router, state, emit, skills, listedAll } = run;
    const wanted: RunBuiltin[] = [];
    if (skills.length) {
      const onActivate = (skill: Skill) =>
        emit(
          event(state, 'skill_activate', {
            step: state.steps.length,
            skill: skill.name,
            allowedTools: skill.allowedTools,
          }),
        );
      wanted.push(...skillBuiltins({ skills, listedAll, onActivate }));
    }
    // recall_result: offered while a result was cleared from the context or cut (compaction off: never).
    if (this.options.context?.compaction !== false) {
      const page = { pageChars: observationLimitFor(this.options), pageTokens: observationTokensFor(this.options) };
      wanted.push(recallResultTool(state, page));
    }
    if (router && router.options.searchTool !== false) {
      const onSearch = (query: string, found: string[]) =>
        emit(event(state, 'tools_search', { step: state.steps.length, query, tools: found }));
      wanted.push(searchToolsBuiltin({ router, tools: () => tools.registry.specs(), onSearch }));
    }
    return runBuiltins(tools.registry, wanted);
  }
}
