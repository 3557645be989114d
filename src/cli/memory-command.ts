import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, withoutBom } from '../core/index.js';
import { type Memory, MemoryKind } from '../memory/index.js';
import { SqliteMemoryStore } from '../memory/node.js';
import { colorsFor } from './colors.js';
import { dataDir } from './data-dir.js';
import { addExamples } from './global-options.js';
import { createProgressBar, stderrSink } from './progress-bar.js';
import { readStdin } from './read-stdin.js';

interface StoreFlags {
  dataDir?: string;
  json?: boolean;
}
interface FilterFlags extends StoreFlags {
  kind?: string;
  tags?: string;
}

const csv = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

function kinds(value: string | undefined): MemoryKind[] | undefined {
  const list = csv(value);
  for (const kind of list) {
    if (!MemoryKind.safeParse(kind).success) {
      throw new ConfigError({ message: `--kind must be one of ${MemoryKind.options.join(', ')} (got "${kind}").` });
    }
  }
  return list.length ? (list as MemoryKind[]) : undefined;
}

function whole(value: string | undefined, name: string, fallback: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError({ message: `${name} must be a whole number of at least 1.` });
  return n;
}

function line(memory: Memory, score?: number): string {
  const pc = colorsFor(process.stdout);
  const tags = memory.tags.length ? pc.dim(` [${memory.tags.join(', ')}]`) : '';
  const when = new Date(memory.createdAt).toISOString().slice(0, 16).replace('T', ' ');
  const head = `${pc.cyan(memory.id)} ${pc.bold(memory.kind.padEnd(10))} ${score === undefined ? pc.dim(when) : pc.dim(score.toFixed(3))}`;
  return `${head}  ${memory.text.replace(/\s+/g, ' ')}${tags}`;
}

async function withStore<T>(flags: StoreFlags, fn: (store: SqliteMemoryStore) => Promise<T>): Promise<T> {
  const store = new SqliteMemoryStore({ dataDir: dataDir(flags.dataDir) });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

const out = (text: string) => process.stdout.write(`${text}\n`);

/** `thinkflow memory add | search | list | rm`: the long-term memory in `thinkflow.db` under the data dir. */
export function registerMemoryCommand(program: Command): void {
  const memory = program.command('memory').description('Add, search, list and remove long-term memories.');
  const dataDirOption = ['--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)'] as const;

  addExamples(memory, [
    ['remember a fact', 'thinkflow memory add "The user prefers metric units" --tags user'],
    ['find it again', 'thinkflow memory search metric units'],
  ]);

  const add = memory
    .command('add')
    .description('Store a memory, or one per line of a file (--file).')
    .argument('[text...]', 'what to remember')
    .option('-f, --file <file>', 'store each non-empty line of FILE as a memory (`-` reads stdin)')
    .option('-k, --kind <kind>', 'fact | episode | reflection | skill', 'fact')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--json', 'print the stored memories as JSON')
    .option(...dataDirOption)
    .action(async (words: string[], flags: FilterFlags & { file?: string }) => {
      const [kind] = kinds(flags.kind) ?? ['fact'];
      const texts = flags.file ? await linesOf(flags.file) : [words.join(' ')];
      if (texts.length === 0 || !texts[0].trim())
        throw new ConfigError({
          message: 'Nothing to remember: give the text, or --file FILE with one memory per line.',
        });
      const bar = createProgressBar({ sink: stderrSink(), label: 'adding memories', total: texts.length });
      const stored = await withStore(flags, async (store) => {
        const added: Memory[] = [];
        for (const text of texts) {
          added.push(await store.add({ kind, text, tags: csv(flags.tags) }));
          bar.update(added.length);
        }
        return added;
      });
      bar.finish();
      if (flags.json) out(JSON.stringify(flags.file ? stored : stored[0]));
      else for (const m of stored) out(m.id);
    });
  addExamples(add, [
    ['a fact with tags', 'thinkflow memory add "The user prefers metric units" --tags user,units'],
    ['a skill', 'thinkflow memory add --kind skill "Use the calculator for arithmetic"'],
    ['one memory per line of a file, with a progress bar', 'thinkflow memory add --file notes.txt --tags notes'],
  ]);

  const search = memory
    .command('search')
    .description('Find the memories that best match a query (BM25).')
    .argument('<query...>', 'what to look for')
    .option('-n, --limit <n>', 'how many results', '5')
    .option('-k, --kind <kinds>', 'only these kinds (comma-separated)')
    .option('--tags <tags>', 'only memories with all these tags')
    .option('--json', 'print the hits as JSON')
    .option(...dataDirOption)
    .action(async (words: string[], flags: FilterFlags & { limit?: string }) => {
      const k = whole(flags.limit, '--limit', 5);
      const hits = await withStore(flags, (store) =>
        store.search(words.join(' '), { k, kinds: kinds(flags.kind), tags: csv(flags.tags) }),
      );
      if (flags.json) out(JSON.stringify(hits));
      else if (hits.length === 0) process.stderr.write('No matching memories.\n');
      else for (const hit of hits) out(line(hit.memory, hit.score));
    });
  addExamples(search, [
    ['the five best matches', 'thinkflow memory search metric units'],
    ['only skills, as JSON', 'thinkflow memory search --kind skill --json calculator'],
  ]);

  const list = memory
    .command('list')
    .description('List memories, newest first.')
    .option('-n, --limit <n>', 'how many', '20')
    .option('--offset <n>', 'skip this many first', '0')
    .option('-k, --kind <kinds>', 'only these kinds (comma-separated)')
    .option('--tags <tags>', 'only memories with all these tags')
    .option('--json', 'print the memories as JSON')
    .option(...dataDirOption)
    .action(async (flags: FilterFlags & { limit?: string; offset?: string }) => {
      const limit = whole(flags.limit, '--limit', 20);
      const offset = Number(flags.offset ?? 0);
      if (!Number.isInteger(offset) || offset < 0)
        throw new ConfigError({ message: '--offset must be a whole number.' });
      const list = await withStore(flags, (store) =>
        store.list({ kinds: kinds(flags.kind), tags: csv(flags.tags), limit, offset }),
      );
      if (flags.json) out(JSON.stringify(list));
      else if (list.length === 0) process.stderr.write('No memories yet. Add one with `thinkflow memory add TEXT`.\n');
      else for (const m of list) out(line(m));
    });
  addExamples(list, [
    ['the newest twenty', 'thinkflow memory list'],
    ['all facts tagged user, as JSON rows', 'thinkflow memory list --kind fact --tags user --json'],
  ]);

  const rm = memory
    .command('rm')
    .description('Delete memories by id.')
    .argument('<ids...>', 'memory ids (from list or search)')
    .option(...dataDirOption)
    .action(async (ids: string[], flags: StoreFlags) => {
      const missing = await withStore(flags, async (store) => {
        const notFound: string[] = [];
        for (const id of ids) {
          if (await store.delete(id)) out(`removed ${id}`);
          else notFound.push(id);
        }
        return notFound;
      });
      if (missing.length) {
        process.stderr.write(`thinkflow: no memory with id ${missing.join(', ')}. See \`thinkflow memory list\`.\n`);
        process.exitCode = 1;
      }
    });
  addExamples(rm, [
    ['one memory', 'thinkflow memory rm mem_0123456789abcdef'],
    [
      'every memory tagged draft',
      'thinkflow memory list --tags draft --json | jq -r ".[].id" | xargs thinkflow memory rm',
    ],
  ]);
}

/** The non-empty lines of a file, or of stdin for `-`. */
async function linesOf(file: string): Promise<string[]> {
  let text: string;
  try {
    text = withoutBom(file === '-' ? await readStdin() : readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read ${file}: check the path.`, cause });
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
