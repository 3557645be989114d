import type { Command } from 'commander';
import pc from 'picocolors';
import { ConfigError } from '../core/index.js';
import { type Memory, MemoryKind, SqliteMemoryStore } from '../memory/index.js';
import { dataDir } from './data-dir.js';

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

  memory
    .command('add')
    .description('Store a memory.')
    .argument('<text...>', 'what to remember')
    .option('-k, --kind <kind>', 'fact | episode | reflection | skill', 'fact')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--json', 'print the stored memory as JSON')
    .option(...dataDirOption)
    .action(async (words: string[], flags: FilterFlags) => {
      const [kind] = kinds(flags.kind) ?? ['fact'];
      const stored = await withStore(flags, (store) =>
        store.add({ kind, text: words.join(' '), tags: csv(flags.tags) }),
      );
      out(flags.json ? JSON.stringify(stored) : stored.id);
    });

  memory
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

  memory
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

  memory
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
}
