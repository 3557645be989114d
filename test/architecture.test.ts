import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** The source file a relative import names (`./x.js` is `./x.ts`, a folder is its `index.ts`). */
function resolveImport(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = join(dirname(file), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/** Every import cycle between source files, type-only imports included, each as a path that comes back to its start. */
function importCycles(paths: string[]): string[][] {
  const edges = new Map(
    paths.map((p) => [p, [...new Set(imports(p).flatMap((s) => resolveImport(p, s) ?? []))]] as const),
  );
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (onStack.has(next)) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of paths) if (!done.has(file)) visit(file);
  return cycles;
}

function moduleOf(file: string): string {
  return relative(SRC, file).split(sep)[0];
}

function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return moduleOf(join(file, '..', spec));
}

// cache/ wraps models (llm/) and keeps replies in SQLite through memory/'s opener, so it sits above both;
// eval/ checks finished runs and formats reports, so it sits above trace/ and below cli/.
const LAYERS = [
  'core',
  'llm',
  'tools',
  'protocols',
  'code',
  'memory',
  'skills',
  'cache',
  'trace',
  'eval',
  'workspace',
  'agent',
  'workflow',
  'engines',
  'server',
  'cli',
];

describe('architecture', () => {
  const all = files(SRC);

  it('core/ and protocols/ import nothing but zod, jsonrepair, @noble/hashes and each other', () => {
    const bad: string[] = [];
    for (const file of all) {
      const mod = moduleOf(file);
      if (mod !== 'core' && mod !== 'protocols') continue;
      for (const spec of imports(file)) {
        const to = target(file, spec);
        const allowed = spec === 'zod' || spec === 'jsonrepair' || spec.startsWith('@noble/hashes/');
        const ok = to ? to === 'core' || to === 'protocols' : allowed;
        if (!ok) bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing below agent/ imports agent/, server/ or cli/', () => {
    // eval/ runs cases through a function the caller passes (the CLI builds the Agent), so it stays below agent/.
    const below = new Set(['core', 'llm', 'tools', 'protocols', 'code', 'memory', 'skills', 'cache', 'trace', 'eval']);
    const bad: string[] = [];
    for (const file of all) {
      if (!below.has(moduleOf(file))) continue;
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (to === 'agent' || to === 'server' || to === 'cli') bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // A module's faces: index.ts runs on every runtime; node.ts (where there is one) holds what needs a disk,
  // a socket or a process. test/runtimes/root-graph.test.ts proves the root's graph never reaches a node.ts.
  it('modules import each other only through their index or their Node face', () => {
    const bad: string[] = [];
    for (const file of all) {
      const from = moduleOf(file);
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (!to || to === from || !LAYERS.includes(to)) continue;
        const resolved = relative(SRC, join(file, '..', spec)).split(sep);
        // server/ has a third face, fetch.ts: the HTTP API as a fetch handler on every runtime.
        const face =
          resolved[1] === 'index.js' || resolved[1] === 'node.js' || (to === 'server' && resolved[1] === 'fetch.js');
        const isIndex = resolved.length === 2 && face;
        if (!isIndex) bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no import cycles between source files, type-only imports included', () => {
    const cycles = importCycles(all).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('the cycle check finds a cycle made of type-only imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = { b?: B };\n");
      writeFileSync(join(dir, 'b.ts'), "import type {\n  A,\n} from './a.js';\nexport type B = { a?: A };\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
      const found = importCycles(['a.ts', 'b.ts', 'c.ts'].map((f) => join(dir, f)));
      expect(found.map((cycle) => cycle.map((f) => relative(dir, f)))).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no function in agent/ takes more than four parameters (a run context and what is specific to the call)', () => {
    const long: string[] = [];
    for (const file of all.filter((f) => moduleOf(f) === 'agent')) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && node.parameters.length > 4) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          long.push(`${relative(SRC, file)}:${line} (${node.parameters.length} parameters)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });

  describe('the server wing: rooms by concept', () => {
    const SERVER = join(SRC, 'server');
    // Each room imports only rooms on lower floors: data (records) below what runs things (runs, queue),
    // the routes and the client protocols (clients) above both, and the app's assembly at the root on top.
    const FLOORS: string[][] = [
      ['health', 'http'],
      ['security', 'records', 'listen'],
      ['caller', 'stores', 'schedules', 'workspaces'],
      ['runs'],
      ['workflows'],
      ['queue', 'routes', 'mcp'],
      ['clients'],
      ['config'],
      ['.'],
    ];
    const floorOf = (room: string) => FLOORS.findIndex((floor) => floor.includes(room));
    const serverFiles = all.filter((f) => f.startsWith(SERVER + sep));
    /** The room (top folder under src/server, `.` for the root) and the folder a file stands in. */
    const roomOf = (file: string) => {
      const parts = relative(SERVER, file).split(sep);
      return parts.length === 1 ? '.' : parts[0];
    };
    const crossings = serverFiles.flatMap((file) =>
      imports(file).flatMap((spec) => {
        const to = resolveImport(file, spec);
        return to?.startsWith(SERVER + sep) && dirname(to) !== dirname(file) ? [{ file, spec, to }] : [];
      }),
    );

    it('src/server/ keeps only the entry, the listener and the app assembly at its root', () => {
      const root = readdirSync(SERVER).filter((name) => name.endsWith('.ts'));
      expect(root.sort()).toEqual(['create-app.ts', 'fetch.ts', 'index.ts', 'serve.ts']);
    });

    it('every server folder is a room on a floor, with an index.ts', () => {
      const rooms = [...new Set(serverFiles.map(roomOf))].sort();
      expect(rooms.filter((room) => floorOf(room) < 0)).toEqual([]);
      expect(rooms.filter((room) => room !== '.' && !existsSync(join(SERVER, room, 'index.ts')))).toEqual([]);
    });

    it('a file leaves its folder only through the index.ts of the folder it imports', () => {
      const bad = crossings
        .filter(({ file, to }) => {
          // A room's faces, as a module's: index.ts runs everywhere, node.ts needs Node.
          if (!to.endsWith(`${sep}index.ts`) && !to.endsWith(`${sep}node.ts`)) return true;
          // From outside a room, the room's own index; inside it (clients/openai -> clients/a2a), a sub-room's.
          const outside = roomOf(file) !== roomOf(to);
          return outside && dirname(to) !== join(SERVER, roomOf(to));
        })
        .map(({ file, spec }) => `${relative(SRC, file)} -> ${spec}`);
      expect(bad).toEqual([]);
    });

    // The wing reads as the agent wing does: a long function becomes named steps, a long file becomes concepts.
    it('no function in src/server passes 80 lines, no file 400', () => {
      const long: string[] = [];
      for (const file of serverFiles) {
        const text = readFileSync(file, 'utf8');
        const lines = text.split('\n').length;
        if (lines > 400) long.push(`${relative(SRC, file)} (${lines} lines)`);
        const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node) => {
          if (ts.isFunctionLike(node) && 'body' in node && node.body) {
            const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
            const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
            if (last - first + 1 > 80) long.push(`${relative(SRC, file)}:${first + 1} (${last - first + 1} lines)`);
          }
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
      expect(long).toEqual([]);
    });

    it('rooms import only rooms on lower floors', () => {
      const bad = crossings
        .filter(({ file, to }) => roomOf(file) !== roomOf(to) && floorOf(roomOf(to)) >= floorOf(roomOf(file)))
        .map(({ file, spec }) => `${relative(SRC, file)} -> ${spec}`);
      expect(bad).toEqual([]);
    });
  });

  describe('the agent wing: rooms by concept', () => {
    const AGENT = join(SRC, 'agent');
    // Each room imports only rooms on lower floors: the guards, the guardrails and the tool router first, then what a
    // run is (options, state, config), the calls a step makes, the step itself, durable runs and teams over them,
    // planning over those, and the Agent, its loop and the supervisor at the root on top.
    const FLOORS: string[][] = [
      ['guards', 'guardrails', 'routing'],
      ['run'],
      ['calls'],
      ['step', 'durable', 'team'],
      ['plan'],
      ['.'],
    ];
    const floorOf = (room: string) => FLOORS.findIndex((floor) => floor.includes(room));
    const agentFiles = all.filter((f) => f.startsWith(AGENT + sep));
    /** The room (top folder under src/agent, `.` for the root) a file stands in. */
    const roomOf = (file: string) => {
      const parts = relative(AGENT, file).split(sep);
      return parts.length === 1 ? '.' : parts[0];
    };
    const crossings = agentFiles.flatMap((file) =>
      imports(file).flatMap((spec) => {
        const to = resolveImport(file, spec);
        return to?.startsWith(AGENT + sep) && dirname(to) !== dirname(file) ? [{ file, spec, to }] : [];
      }),
    );
    const upward = (list: typeof crossings) =>
      list
        .filter(({ file, to }) => roomOf(file) !== roomOf(to) && floorOf(roomOf(to)) >= floorOf(roomOf(file)))
        .map(({ file, spec }) => `${relative(SRC, file)} -> ${spec}`);

    it('src/agent/ keeps only the Agent, its loop, the presets (supervisor, workspace agent) and the entry at its root', () => {
      const root = readdirSync(AGENT).filter((name) => name.endsWith('.ts'));
      expect(root.sort()).toEqual(['agent.ts', 'index.ts', 'run-loop.ts', 'supervisor.ts', 'workspace-agent.ts']);
    });

    it('every agent folder is a room on a floor, with an index.ts', () => {
      const rooms = [...new Set(agentFiles.map(roomOf))].sort();
      expect(rooms.filter((room) => floorOf(room) < 0)).toEqual([]);
      expect(rooms.filter((room) => room !== '.' && !existsSync(join(AGENT, room, 'index.ts')))).toEqual([]);
    });

    it('a file leaves its folder only through the index.ts of the folder it imports', () => {
      const bad = crossings
        .filter(({ to }) => dirname(to) === AGENT || to !== join(AGENT, roomOf(to), 'index.ts'))
        .map(({ file, spec }) => `${relative(SRC, file)} -> ${spec}`);
      expect(bad).toEqual([]);
    });

    it('rooms import only rooms on lower floors', () => {
      expect(upward(crossings)).toEqual([]);
    });

    it('the floor check finds an upward import', () => {
      const run = join(AGENT, 'run', 'run-state.ts');
      const planted = { file: run, spec: '../step/index.js', to: join(AGENT, 'step', 'index.ts') };
      expect(upward([planted])).toEqual(['agent/run/run-state.ts -> ../step/index.js']);
    });
  });

  it('no source file passes the 500-line hard cap', () => {
    const big = all.filter((f) => readFileSync(f, 'utf8').split('\n').length > 500).map((f) => relative(SRC, f));
    expect(big).toEqual([]);
  });

  it('no eval or Function constructor anywhere in src', () => {
    const bad = all.filter((f) => /\beval\(|new Function\(/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
});
