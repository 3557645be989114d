import { ConfigError, type ToolSpec, toolNameAliases } from '../core/index.js';
import { closestNames } from './closest-names.js';
import { normalizeToolName, prefixedToolNameKey } from './normalize-tool-name.js';
import type { AnyTool } from './tool.js';

/** What `ToolRegistry.lookup` found: the tool, or a message the model can act on. */
export type ToolLookup =
  | { ok: true; tool: AnyTool }
  | { ok: false; reason: 'unknown' | 'disabled'; message: string; suggestions: string[] };

interface Entry {
  tool: AnyTool;
  spec: ToolSpec;
  /** Why the tool is disabled; undefined while it is enabled. */
  disabled?: string;
  /** Callable but never listed (a loop's built-in tool, offered only at some steps). */
  hidden?: boolean;
}

const specs = new WeakMap<AnyTool, ToolSpec>();

/** The registry `fork()` is copying, for the constructor it calls (set and read synchronously, at once). */
let forkSource: ToolRegistry | undefined;

/**
 * The tool as providers see it: one frozen spec object per tool, shared by every registry that holds
 * the tool, so caches of prompt text can key on its identity. A tool changed since is specced anew.
 */
function specOf(tool: AnyTool): ToolSpec {
  const known = specs.get(tool);
  if (
    known &&
    known.name === tool.name &&
    known.description === tool.description &&
    known.parameters === tool.parameters
  ) {
    return known;
  }
  const spec: ToolSpec = { name: tool.name, description: tool.description, parameters: tool.parameters };
  if (tool.outputParameters) spec.output = tool.outputParameters;
  if (tool.callableFromCode === false) spec.callableFromCode = false;
  Object.freeze(spec);
  specs.set(tool, spec);
  return spec;
}

/**
 * The tools an agent may call, changeable at runtime. `specs()` is cached and returns the same
 * array until the set of enabled tools changes, so the loop can call it every step (and cache
 * prompt text by its identity). Give each run its own copy with `fork()`: the executor disables
 * failing tools in the registry it is given.
 *
 * @example
 * const registry = new ToolRegistry([calculatorTool, weather]);
 * registry.disable('weather', 'the weather service is down');
 * registry.lookup('Calculator()'); // { ok: true, tool: calculatorTool }
 */
export class ToolRegistry {
  // The listed tools and their forgiving keys. A fork shares them with the registry it came from
  // (`#shared` on both) until either changes them: then it copies them first, so a fork costs the
  // same at 4,000 tools as at 10, and a run that never disables a tool never copies.
  #entries: Map<string, Entry>;
  #byKey: Map<string, string>;
  #shared: boolean;
  /** Hidden tools (the loop's built-ins): few, each registry's own, and made at the first (most runs have none). */
  #hidden: Map<string, Entry> | undefined = undefined;
  #specs: ToolSpec[] | undefined;
  #enabled: AnyTool[] | undefined;
  #version = 0;

  constructor(tools: Iterable<AnyTool> = []) {
    // A fork (one per run) takes its source's tables as they are, not two new maps it would drop at once.
    const source = forkSource;
    forkSource = undefined;
    this.#shared = source !== undefined;
    this.#entries = source ? source.#entries : new Map();
    this.#byKey = source ? source.#byKey : new Map();
    for (const tool of tools) this.register(tool);
  }

  /** Bumped on every change to the set of tools or their enabled state. */
  get version(): number {
    return this.#version;
  }

  /**
   * Adds a tool. Throws a ConfigError when another tool already has its name (`replace` overrides).
   * A `hidden` tool can be called but is left out of `specs()` and `list()` (which keep their arrays).
   */
  register(tool: AnyTool, options: { replace?: boolean; hidden?: boolean } = {}): this {
    const taken = this.#entries.has(tool.name) || this.#hidden?.has(tool.name) === true;
    if (taken && !options.replace) {
      throw new ConfigError({ message: `A tool named "${tool.name}" is already registered; rename one of them.` });
    }
    if (taken) this.#forget(tool.name);
    const spec = specOf(tool);
    if (options.hidden) {
      this.#hidden ??= new Map();
      this.#hidden.set(tool.name, { tool, spec, hidden: true });
      return this;
    }
    this.#own();
    this.#entries.set(tool.name, { tool, spec });
    this.#addKeys(tool.name);
    return this.#changed();
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    if (this.#hidden?.delete(name)) return true;
    if (!this.#entries.has(name)) return false;
    this.#forget(name);
    this.#changed();
    return true;
  }

  /** Turns a disabled tool back on. */
  enable(name: string): this {
    const entry = this.#writable(name);
    if (entry?.disabled !== undefined) {
      entry.disabled = undefined;
      this.#changed();
    }
    return this;
  }

  /** Hides a tool from `specs()`/`list()`; calling it yields an observation with `reason`. */
  disable(name: string, reason = 'it was disabled'): this {
    const entry = this.#writable(name);
    if (entry && entry.disabled === undefined) {
      entry.disabled = reason;
      this.#changed();
    }
    return this;
  }

  isEnabled(name: string): boolean {
    const entry = this.#entry(name);
    return entry !== undefined && entry.disabled === undefined;
  }

  /** The enabled tools, in registration order (cached). */
  list(): readonly AnyTool[] {
    if (this.#enabled) return this.#enabled;
    // One pass, no intermediate arrays: an agent made per request lists its tools on every run.
    const enabled: AnyTool[] = [];
    for (const entry of this.#entries.values()) if (entry.disabled === undefined) enabled.push(entry.tool);
    this.#enabled = enabled;
    return enabled;
  }

  /** Every registered tool, enabled or not, hidden ones last. */
  all(): AnyTool[] {
    return [...this.#entries.values(), ...(this.#hidden?.values() ?? [])].map((e) => e.tool);
  }

  /** The enabled tools as providers see them. Same array instance until the set changes. */
  specs(): readonly ToolSpec[] {
    // Frozen, so caches may key on it (the system prompt's, the router's index).
    if (this.#specs) return this.#specs;
    const specs: ToolSpec[] = [];
    for (const entry of this.#entries.values()) if (entry.disabled === undefined) specs.push(entry.spec);
    this.#specs = Object.freeze(specs) as ToolSpec[];
    return this.#specs;
  }

  /** A registered tool by exact or forgiving name, enabled or not. */
  get(name: string): AnyTool | undefined {
    return this.#entry(name)?.tool;
  }

  /**
   * Resolves a name as a model wrote it. Unknown or disabled tools give a message listing the
   * available tools and the closest names, ready to be the call's observation.
   */
  lookup(name: string): ToolLookup {
    const entry = this.#entry(name);
    if (entry && entry.disabled === undefined) return { ok: true, tool: entry.tool };
    // The built-ins a run offered (hidden here: load_skill, search_tools...) are tools the model may call too.
    const available = this.list().map((t) => t.name);
    for (const hidden of this.#hidden?.values() ?? [])
      if (hidden.disabled === undefined) available.push(hidden.tool.name);
    const listing = available.length > 0 ? availableList(available) : 'No tools are available.';
    if (entry) {
      const message = `Tool "${entry.tool.name}" is disabled for the rest of this run because ${entry.disabled}. Do not call it again. ${listing}`;
      return { ok: false, reason: 'disabled', message, suggestions: [] };
    }
    const suggestions = closestNames(name, available);
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
    return { ok: false, reason: 'unknown', message: `Unknown tool "${name}".${hint} ${listing}`, suggestions };
  }

  /**
   * A copy with the same tools and enabled states, for one run. Cheap whatever the number of tools:
   * it shares the tool table (and the `specs()` array) until one side changes it.
   */
  fork(): ToolRegistry {
    forkSource = this;
    const copy = new ToolRegistry();
    this.#shared = true;
    if (this.#hidden?.size) copy.#hidden = new Map([...this.#hidden].map(([name, entry]) => [name, { ...entry }]));
    copy.#specs = this.#specs;
    copy.#enabled = this.#enabled;
    return copy;
  }

  /** Copies the shared tool table before the first change to it. */
  #own(): void {
    if (!this.#shared) return;
    const entries = new Map<string, Entry>();
    for (const [name, entry] of this.#entries) entries.set(name, { ...entry });
    this.#entries = entries;
    this.#byKey = new Map(this.#byKey);
    this.#shared = false;
  }

  /** The entry to change: a hidden one as it is, a listed one from this registry's own table. */
  #writable(name: string): Entry | undefined {
    const entry = this.#entry(name);
    if (!entry || entry.hidden) return entry;
    this.#own();
    return this.#entries.get(entry.tool.name);
  }

  /** Takes a tool out of both tables (its forgiving keys too). */
  #forget(name: string): void {
    if (this.#hidden?.delete(name)) return;
    this.#own();
    this.#entries.delete(name);
    this.#byKey.clear();
    for (const other of this.#entries.keys()) this.#addKeys(other);
  }

  /**
   * The forgiving keys a tool is found by: its name's, then its wire aliases' (a model that saw
   * `github_create_issue_…` on one provider's wire may write that in text), never taking another tool's key.
   */
  #addKeys(name: string): void {
    for (const spelling of [name, ...toolNameAliases(name)]) {
      for (const key of [normalizeToolName(spelling), prefixedToolNameKey(spelling)]) {
        if (!this.#byKey.has(key)) this.#byKey.set(key, name);
      }
    }
  }

  #entry(name: string): Entry | undefined {
    const exact = this.#entries.get(name) ?? this.#hidden?.get(name);
    if (exact) return exact;
    const key = normalizeToolName(name);
    const canonical = this.#byKey.get(key) ?? this.#byKey.get(prefixedToolNameKey(name));
    if (canonical !== undefined) return this.#entries.get(canonical);
    if (!this.#hidden) return undefined;
    for (const entry of this.#hidden.values()) if (normalizeToolName(entry.tool.name) === key) return entry;
    return undefined;
  }

  #changed(): this {
    this.#specs = undefined;
    this.#enabled = undefined;
    this.#version++;
    return this;
  }
}

/** Names listed in an unknown-tool message, at most: a routed agent may hold thousands of tools. */
const LISTED_NAMES = 40;

function availableList(names: string[]): string {
  if (names.length <= LISTED_NAMES) return `Available tools: ${names.join(', ')}.`;
  return `Available tools include ${names.slice(0, LISTED_NAMES).join(', ')}, and ${names.length - LISTED_NAMES} more.`;
}
