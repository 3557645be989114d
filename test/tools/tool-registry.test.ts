import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/index.js';
import { defineTool } from '../../src/tools/tool.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

const make = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, input: z.object({ q: z.string() }), run: ({ q }) => q });

describe('ToolRegistry', () => {
  it('registers, lists and unregisters tools in registration order', () => {
    const registry = new ToolRegistry([make('search'), make('get_weather')]);
    registry.register(make('calculator'));
    expect(registry.list().map((t) => t.name)).toEqual(['search', 'get_weather', 'calculator']);
    expect(registry.unregister('search')).toBe(true);
    expect(registry.unregister('search')).toBe(false);
    expect(registry.list().map((t) => t.name)).toEqual(['get_weather', 'calculator']);
  });

  it('refuses a duplicate name unless asked to replace it', () => {
    const registry = new ToolRegistry([make('search')]);
    expect(() => registry.register(make('search'))).toThrow(ConfigError);
    const other = make('search');
    registry.register(other, { replace: true });
    expect(registry.get('search')).toBe(other);
  });

  it('hides disabled tools from list and specs, and enables them again', () => {
    const registry = new ToolRegistry([make('search'), make('calculator')]);
    registry.disable('search', 'the index is offline');
    expect(registry.specs().map((s) => s.name)).toEqual(['calculator']);
    expect(registry.isEnabled('search')).toBe(false);
    const lookup = registry.lookup('search');
    expect(lookup).toMatchObject({ ok: false, reason: 'disabled' });
    expect(!lookup.ok && lookup.message).toContain('the index is offline');
    registry.enable('search');
    expect(registry.specs().map((s) => s.name)).toEqual(['search', 'calculator']);
  });

  it('returns the same specs array until the set changes', () => {
    const registry = new ToolRegistry([make('search')]);
    const first = registry.specs();
    expect(registry.specs()).toBe(first);
    expect(first[0]).toEqual({ name: 'search', description: 'The search tool.', parameters: expect.any(Object) });
    const version = registry.version;
    registry.register(make('calculator'));
    expect(registry.specs()).not.toBe(first);
    expect(registry.version).toBeGreaterThan(version);
    const second = registry.specs();
    registry.disable('nope');
    expect(registry.specs()).toBe(second);
  });

  it.each([
    'get_weather',
    'Get_Weather',
    'get weather',
    'get-weather',
    'getWeather',
    'get_weather()',
    '"get_weather"',
    '`get_weather`',
    "'get_weather()'",
    '  get_weather  ',
    'functions.get_weather',
  ])('finds get_weather when the model writes %j', (name) => {
    const registry = new ToolRegistry([make('search'), make('get_weather')]);
    const lookup = registry.lookup(name);
    expect(lookup.ok && lookup.tool.name).toBe('get_weather');
  });

  it.each(['functions.intersect', 'functions_intersect', 'intersect', 'Functions.Intersect'])(
    'finds a tool named functions.intersect when the model writes %j',
    (name) => {
      // BFCL's function docs name tools this way; models write the dot as `_` as OpenAI names require.
      const registry = new ToolRegistry([make('functions.zero'), make('functions.intersect')]);
      const lookup = registry.lookup(name);
      expect(lookup.ok && lookup.tool.name).toBe('functions.intersect');
    },
  );

  it('answers an unknown name with the available tools and the closest names', () => {
    const registry = new ToolRegistry([make('search'), make('get_weather'), make('calculator')]);
    const lookup = registry.lookup('serach');
    expect(lookup.ok).toBe(false);
    if (lookup.ok) return;
    expect(lookup.reason).toBe('unknown');
    expect(lookup.suggestions[0]).toBe('search');
    expect(lookup.message).toContain('Unknown tool "serach"');
    expect(lookup.message).toContain('Did you mean "search"');
    expect(lookup.message).toContain('Available tools: search, get_weather, calculator.');
  });

  it('lists the built-ins a run offered (hidden tools) among the available ones, and suggests them', () => {
    const registry = new ToolRegistry();
    registry.register(make('load_skill'), { hidden: true });
    const lookup = registry.lookup('load_skil');
    expect(lookup.ok).toBe(false);
    if (lookup.ok) return;
    expect(lookup.message).toContain('Did you mean "load_skill"');
    expect(lookup.message).toContain('Available tools: load_skill.');
    expect(lookup.message).not.toContain('No tools are available');
  });

  it('lists at most 40 names for a registry of thousands', () => {
    const registry = new ToolRegistry(Array.from({ length: 4000 }, (_, i) => make(`tool_${i}`)));
    const lookup = registry.lookup('nothing_like_it');
    if (lookup.ok) throw new Error('found');
    expect(lookup.message).toContain('Available tools include tool_0, tool_1,');
    expect(lookup.message).toContain('tool_39, and 3960 more.');
    expect(lookup.message.length).toBeLessThan(800);
  });

  it('suggests nothing for a name far from every tool', () => {
    const registry = new ToolRegistry([make('search')]);
    const lookup = registry.lookup('translate_document');
    expect(!lookup.ok && lookup.suggestions).toEqual([]);
    expect(!lookup.ok && lookup.message).not.toContain('Did you mean');
  });

  it('says so when no tools are available', () => {
    const lookup = new ToolRegistry().lookup('search');
    expect(!lookup.ok && lookup.message).toContain('No tools are available.');
  });

  it('forks a copy whose changes do not reach the original', () => {
    const registry = new ToolRegistry([make('search'), make('calculator')]);
    const specs = registry.specs();
    const fork = registry.fork();
    expect(fork.specs()).toBe(specs);
    fork.disable('search');
    fork.unregister('calculator');
    expect(fork.specs()).toEqual([]);
    expect(registry.specs()).toBe(specs);
    expect(registry.isEnabled('search')).toBe(true);
  });

  it('shares its table with a fork until either side changes it, each change staying on its side', () => {
    const registry = new ToolRegistry([make('search'), make('calculator')]);
    const specs = registry.specs();
    const first = registry.fork();
    const second = registry.fork();
    // A hidden built-in is the fork's alone and leaves the listed tools (and their array) as they were.
    first.register(make('recall_result'), { hidden: true });
    expect(first.specs()).toBe(specs);
    expect(first.get('recall_result')?.name).toBe('recall_result');
    expect(first.get('Recall-Result')?.name).toBe('recall_result');
    expect(second.get('recall_result')).toBeUndefined();
    // The agent's registry changes after the forks: the runs keep the tools they started with.
    registry.register(make('translate'));
    registry.disable('calculator');
    expect(first.list().map((t) => t.name)).toEqual(['search', 'calculator']);
    expect(second.isEnabled('calculator')).toBe(true);
    expect(registry.list().map((t) => t.name)).toEqual(['search', 'translate']);
    // A run disables a failing tool: the other run and the agent do not see it.
    second.disable('search', 'it failed 3 times');
    expect(second.lookup('search')).toMatchObject({ ok: false, reason: 'disabled' });
    expect(first.isEnabled('search')).toBe(true);
    expect(registry.isEnabled('search')).toBe(true);
    // A fork of a fork has its parent's hidden tools, as its own.
    const nested = first.fork();
    nested.unregister('recall_result');
    expect(first.get('recall_result')).toBeDefined();
    expect(nested.all().map((t) => t.name)).toEqual(['search', 'calculator']);
  });
});
