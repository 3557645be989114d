import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddingProvider,
  type MemoryInput,
  type MemoryStore,
  openaiEmbeddings,
  type Rerank,
} from '../../src/memory/index.js';
import { type EmbeddingServer, startEmbeddingServer } from './embedding-server.js';

export interface MemoryStoreContractOptions {
  name: string;
  create(options: { embed?: EmbeddingProvider; rerank?: Rerank }): Promise<MemoryStore>;
}

const FACTS: MemoryInput[] = [
  {
    kind: 'fact',
    text: 'Paris is the capital of France and has about 2.1 million inhabitants.',
    tags: ['geo', 'france'],
  },
  { kind: 'fact', text: 'The user prefers metric units and answers in French.', tags: ['user'] },
  { kind: 'skill', text: 'Use the calculator tool for arithmetic instead of guessing numbers.', tags: ['tools'] },
  { kind: 'episode', text: 'Task: population of Lyon. Result: about 520,000 inhabitants.', tags: ['geo', 'france'] },
  {
    kind: 'reflection',
    text: 'Searching the web twice for the same query wasted steps; reuse the results.',
    tags: ['tools'],
  },
  { kind: 'fact', text: 'TypeScript strict mode catches null dereferences at compile time.', tags: ['code'] },
];

/** The behaviour every MemoryStore must have. Each implementation's test file calls this. */
export function runMemoryStoreContract({ name, create }: MemoryStoreContractOptions) {
  describe(`${name} (memory store contract)`, () => {
    let store: MemoryStore;
    let server: EmbeddingServer;
    const open: MemoryStore[] = [];
    const make = async (options: Parameters<typeof create>[0] = {}) => {
      const s = await create(options);
      open.push(s);
      return s;
    };
    beforeAll(async () => {
      server = await startEmbeddingServer();
    });
    afterAll(async () => {
      await server.close();
    });
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
    });

    it('adds a memory with an id, tags and timestamps, and gets it back', async () => {
      store = await make();
      const before = Date.now();
      const memory = await store.add({
        kind: 'fact',
        text: 'Water boils at 100 °C at sea level.',
        tags: ['physics'],
        metadata: { source: 'test' },
      });
      expect(memory).toMatchObject({ kind: 'fact', tags: ['physics'], metadata: { source: 'test' } });
      expect(memory.id).toMatch(/^mem_/);
      expect(memory.createdAt).toBeGreaterThanOrEqual(before);
      expect(await store.get(memory.id)).toEqual(memory);
      expect(await store.get('mem_missing')).toBeUndefined();
    });

    it('finds the relevant memories with BM25 alone, best first, at most k', async () => {
      store = await make();
      await store.addMany(FACTS);
      const hits = await store.search('How many inhabitants does Paris have?', { k: 2 });
      expect(hits.length).toBeLessThanOrEqual(2);
      expect(hits[0].memory.text).toContain('Paris');
      expect(hits[0].score).toBeGreaterThan(0);
      const calc = await store.search('which tool for arithmetic?', { k: 1 });
      expect(calc[0].memory.kind).toBe('skill');
    });

    it('finds Chinese and Japanese memories by a word inside a run of characters, and deletes them from search', async () => {
      store = await make();
      const [metric] = await store.addMany([
        { kind: 'fact', text: '用户喜欢使用公制单位，回答请用中文。', tags: ['用户'] },
        { kind: 'fact', text: '北京今天晴，气温10到18摄氏度。', tags: ['天气'] },
        { kind: 'fact', text: 'ユーザーはメートル法を好みます。', tags: ['user'] },
        ...FACTS,
      ]);
      expect((await store.search('公制单位', { k: 3 }))[0].memory.id).toBe(metric.id);
      expect((await store.search('北京的气温是多少？', { k: 1 }))[0].memory.text).toContain('北京');
      expect((await store.search('メートル法', { k: 1 }))[0].memory.text).toContain('メートル法');
      expect((await store.search('天气', { k: 1 }))[0].memory.tags).toEqual(['天气']);
      expect((await store.search('metric units', { k: 1 }))[0].memory.text).toContain('metric');
      await store.delete(metric.id);
      expect((await store.search('公制单位', { k: 3 })).map((h) => h.memory.id)).not.toContain(metric.id);
    });

    it('filters searches by kinds (any) and tags (all)', async () => {
      store = await make();
      await store.addMany(FACTS);
      const episodes = await store.search('inhabitants population', { k: 5, kinds: ['episode'] });
      expect(episodes.map((h) => h.memory.kind)).toEqual(['episode']);
      const tagged = await store.search('inhabitants', { k: 5, tags: ['geo', 'france'] });
      expect(tagged.length).toBe(2);
      expect(await store.search('inhabitants', { k: 5, tags: ['geo', 'code'] })).toEqual([]);
    });

    it('treats any query text as plain words: operators and quotes never throw', async () => {
      store = await make();
      await store.addMany(FACTS);
      for (const query of ['"unbalanced', 'AND OR NOT (', 'paris*', '???', '', "it's the user's units: NEAR(a b)"]) {
        await expect(store.search(query, { k: 3 })).resolves.toBeInstanceOf(Array);
      }
      expect((await store.search("the user's units", { k: 1 }))[0].memory.tags).toEqual(['user']);
    });

    it('deletes memories from get, list and search', async () => {
      store = await make();
      const [paris] = await store.addMany(FACTS);
      expect(await store.delete(paris.id)).toBe(true);
      expect(await store.delete(paris.id)).toBe(false);
      expect(await store.get(paris.id)).toBeUndefined();
      expect((await store.search('Paris capital', { k: 5 })).map((h) => h.memory.id)).not.toContain(paris.id);
      expect((await store.list()).map((m) => m.id)).not.toContain(paris.id);
    });

    it('lists newest first with kind and tag filters, limit and offset', async () => {
      store = await make();
      const first = await store.add(FACTS[0]);
      await new Promise((r) => setTimeout(r, 5));
      const second = await store.add(FACTS[2]);
      await store.addMany(FACTS.slice(3));
      const all = await store.list();
      expect(all).toHaveLength(5);
      expect(all.at(-1)!.id).toBe(first.id);
      expect(all.indexOf(all.find((m) => m.id === second.id)!)).toBe(3);
      expect((await store.list({ kinds: ['skill', 'reflection'] })).map((m) => m.kind).sort()).toEqual([
        'reflection',
        'skill',
      ]);
      expect((await store.list({ tags: ['tools'] })).length).toBe(2);
      expect((await store.list({ limit: 2, offset: 3 })).map((m) => m.id)).toEqual(all.slice(3).map((m) => m.id));
    });

    it('rejects invalid input with a StoreError', async () => {
      store = await make();
      await expect(store.add({ kind: 'opinion', text: 'x' } as unknown as MemoryInput)).rejects.toMatchObject({
        name: 'StoreError',
      });
      await expect(store.add({ kind: 'fact', text: '' })).rejects.toMatchObject({ name: 'StoreError' });
    });

    it('with an embedding provider, hybrid search finds a memory that shares no word with the query', async () => {
      const embed = openaiEmbeddings({ baseURL: `${server.url}/v1`, model: 'toy-embed', apiKey: 'sk-test' });
      store = await make({ embed });
      await store.addMany([
        { kind: 'fact', text: 'The physician visits on Tuesdays.' },
        { kind: 'fact', text: 'The user owns a red automobile.' },
        { kind: 'fact', text: 'Prices rose in March.' },
      ]);
      const lexicalOnly = await (await make()).search('car', { k: 1 });
      expect(lexicalOnly).toEqual([]);
      const hits = await store.search('what car does the user drive?', { k: 1 });
      expect(hits[0].memory.text).toContain('automobile');
      const doctor = await store.search('when does the doctor come', { k: 1 });
      expect(doctor[0].memory.text).toContain('physician');
    });

    it('calls the rerank hook with the candidates and keeps its order', async () => {
      const seen: string[][] = [];
      store = await make({
        rerank: async (query, hits) => {
          expect(query).toBe('inhabitants');
          seen.push(hits.map((h) => h.memory.id));
          return [...hits].reverse();
        },
      });
      await store.addMany(FACTS);
      const reranked = await store.search('inhabitants', { k: 1 });
      expect(seen[0]).toHaveLength(2);
      expect(reranked.map((h) => h.memory.id)).toEqual([seen[0][1]]);
    });
  });
}
