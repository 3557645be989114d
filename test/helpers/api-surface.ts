/**
 * The public surface of each entry of the package: the names a user can import from `thinkflow` and from
 * each subpath in package.json's `exports`, split into runtime values (what `import()` of the entry yields)
 * and type-only names (what the TypeScript compiler sees exported, minus the values).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Entry {
  /** The import specifier a user writes: `thinkflow`, `thinkflow/server`, … */
  specifier: string;
  /** The source file the entry is built from, relative to the repository root. */
  source: string;
  /** The report's file name in api-report/. */
  report: string;
}

export interface Surface {
  values: string[];
  types: string[];
}

/** Every entry package.json exports, with its source file (`dist/x.js` is built from `src/x.ts`). */
export function packageEntries(): Entry[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([key, target]) => {
    if (typeof target === 'string') return [];
    const specifier = key === '.' ? 'thinkflow' : `thinkflow/${key.slice(2)}`;
    const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    return [{ specifier, source, report: `${specifier.replaceAll('/', '-')}.api.md` }];
  });
}

/** The names each source file exports that exist only as types, by the compiler (one program for all). */
export function typeOnlyExports(sources: string[], runtime: Map<string, string[]>): Map<string, string[]> {
  const files = sources.map((s) => join(ROOT, s));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  return new Map(
    sources.map((source, i) => {
      const file = program.getSourceFile(files[i]);
      const symbol = file && checker.getSymbolAtLocation(file);
      if (!symbol) throw new Error(`${source}: the compiler found no module`);
      const values = new Set(runtime.get(source) ?? []);
      const names = checker.getExportsOfModule(symbol).map((s) => s.getName());
      return [source, names.filter((name) => !values.has(name)).sort()];
    }),
  );
}

/** The report of one entry, as committed in api-report/. */
export function renderReport(entry: Entry, surface: Surface): string {
  const list = (names: string[]) => names.map((name) => `- ${name}`).join('\n');
  const total = surface.values.length + surface.types.length;
  return [
    `# \`${entry.specifier}\``,
    '',
    `Built from \`${entry.source}\`. ${total} names: ${surface.values.length} values, ${surface.types.length} types.`,
    'Rewrite with `UPDATE_API_REPORT=1 npx vitest run test/api-report.test.ts` when the surface changes on purpose.',
    '',
    `## Values (${surface.values.length})`,
    '',
    list(surface.values),
    '',
    `## Types (${surface.types.length})`,
    '',
    list(surface.types),
    '',
  ].join('\n');
}
