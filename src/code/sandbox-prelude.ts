/**
 * The program's world, set up inside the sandbox before it runs: `tools`, `console`, a bounded
 * `setTimeout`, a seeded `Math.random` and `Date`, and `final_answer`. It receives one host function
 * and hands back two of its own (`settle`, `watch`); nothing else of the host is reachable, and
 * everything that crosses is JSON text, parsed on the other side.
 *
 * Called as `(prelude)(host, names, seed, clock, hasFinal)`. `host(kind, id, a, b)` takes strings only;
 * kinds: `call` (a = name, b = input JSON), `sleep` (a = ms), `log`, `final`, `done`, `fail`.
 */
export const SANDBOX_PRELUDE = `(function (host, names, seed, clock, hasFinal) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const RealDate = Date;
  const pending = new Map();
  let next = 0;
  const request = (kind, a, b) => new Promise((resolve, reject) => {
    const id = ++next;
    pending.set(id, { resolve, reject });
    host(kind, id, a, b);
  });
  const settle = (id, ok, text) => {
    const waiter = pending.get(id);
    if (!waiter) return;
    pending.delete(id);
    if (ok) waiter.resolve(text === undefined ? undefined : parse(text));
    else waiter.reject(new Error(text));
  };
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const table = {};
  for (const name of names) {
    table[name] = (input) => {
      let text;
      try {
        text = stringify(input === undefined ? {} : input);
      } catch (error) {
        return Promise.reject(new TypeError('The input of tools.' + name + ' cannot be turned into JSON: ' + error.message));
      }
      return request('call', name, text);
    };
  }
  Object.freeze(table);
  const missing = (name) => () => Promise.reject(new Error('No tool named "' + name + '" is available to code. Available: ' + (names.join(', ') || 'none') + '.'));
  const tools = new Proxy(table, {
    get: (target, key) => (typeof key !== 'string' || key in target || key === 'then' || key === 'toJSON' ? target[key] : missing(key)),
  });
  const log = (...args) => { host('log', 0, args.map(show).join(' ')); };
  const timers = new Set();
  let timerIds = 0;
  let state = seed >>> 0;
  let ticks = 0;
  const now = () => clock + ticks++;
  function SeededDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  }
  SeededDate.prototype = RealDate.prototype;
  SeededDate.now = now;
  SeededDate.parse = RealDate.parse;
  SeededDate.UTC = RealDate.UTC;
  Object.defineProperties(globalThis, {
    tools: { value: tools },
    console: { value: Object.freeze({ log, info: log, warn: log, error: log, debug: log }) },
    Date: { value: SeededDate, writable: true, configurable: true },
    setTimeout: {
      value: (fn, ms, ...args) => {
        const id = ++timerIds;
        timers.add(id);
        request('sleep', String(Number(ms) || 0)).then(() => {
          if (timers.delete(id) && typeof fn === 'function') fn(...args);
        });
        return id;
      },
    },
    clearTimeout: { value: (id) => { timers.delete(id); } },
  });
  Math.random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  if (hasFinal) {
    const stop = new Error('final_answer ends the program');
    globalThis.final_answer = (value) => {
      let text;
      try {
        text = stringify(value);
      } catch (error) {
        throw new TypeError('The value of final_answer cannot be turned into JSON: ' + error.message);
      }
      host('final', 0, text);
      throw stop;
    };
  }
  const watch = (promise) => {
    promise.then(
      (value) => {
        let text;
        try {
          text = stringify(value);
        } catch (error) {
          host('fail', 0, 'The returned value cannot be turned into JSON: ' + show(error));
          return;
        }
        host('done', 0, text);
      },
      (error) => host('fail', 0, show(error) + (error instanceof Error && error.stack ? '\\n' + error.stack : '')),
    );
  };
  return [settle, watch];
})`;
