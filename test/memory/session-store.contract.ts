import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/index.js';
import type { SessionStore } from '../../src/memory/index.js';

export interface SessionStoreContractOptions {
  name: string;
  create(): Promise<SessionStore>;
}

const turn: Message[] = [
  { role: 'user', content: 'What is 2+2?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"e":"2+2"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '4' },
  { role: 'assistant', content: 'It is 4.' },
];

/** The behaviour every SessionStore must have. Each implementation's test file calls this. */
export function runSessionStoreContract({ name, create }: SessionStoreContractOptions) {
  describe(`${name} (session store contract)`, () => {
    const open: SessionStore[] = [];
    const make = async () => {
      const store = await create();
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close?.();
    });

    it('appends, loads, lists newest first and resets sessions', async () => {
      const store = await make();
      expect(await store.load('s1')).toEqual([]);
      await store.append('s1', turn);
      await store.append('s2', [{ role: 'user', content: 'hi' }]);
      await new Promise((r) => setTimeout(r, 5));
      await store.append('s1', [{ role: 'user', content: 'And 3+3?' }]);
      expect(await store.load('s1')).toEqual([...turn, { role: 'user', content: 'And 3+3?' }]);
      const list = await store.list();
      expect(list.map((s) => [s.id, s.messages])).toEqual([
        ['s1', 5],
        ['s2', 1],
      ]);
      expect(list[0].updatedAt).toBeGreaterThan(list[0].createdAt);
      await store.reset('s1');
      expect(await store.load('s1')).toEqual([]);
      expect((await store.list()).map((s) => s.id)).toEqual(['s2']);
      await store.append('s1', []);
      expect((await store.list()).map((s) => s.id)).toEqual(['s2']);
    });

    it('rejects an invalid message with a StoreError and stores none of that append', async () => {
      const store = await make();
      await expect(
        store.append('s', [{ role: 'user', content: 'ok' }, { role: 'robot', content: 'x' } as unknown as Message]),
      ).rejects.toMatchObject({
        name: 'StoreError',
        message: expect.stringMatching(/message 1 is not a valid Message/),
      });
      expect(await store.load('s')).toEqual([]);
    });

    it('stores credentials redacted, and a caller changing its messages later changes nothing stored', async () => {
      const store = await make();
      const message: Message = { role: 'user', content: 'my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' };
      await store.append('s', [message]);
      message.content = 'changed';
      const [loaded] = await store.load('s');
      expect(loaded.content).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
      expect(loaded.content).toContain('[redacted]');
      loaded.content = 'changed again';
      expect((await store.load('s'))[0].content).toContain('[redacted]');
    });
  });
}
