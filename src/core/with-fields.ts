/**
 * A fresh object with `base`'s properties and then `fields`', like `{ ...base, ...fields }`.
 *
 * On Node 20 (V8 11) a spread copy that then gains properties (`{ ...base, extra }`) costs 0.5 to
 * 2 µs, twenty times `Object.assign`; the loop builds such objects on every run and model call.
 *
 * @example
 * withFields(response, { modelId: 'gpt-4o' });
 */
export function withFields<A extends object, B extends object>(base: A, fields: B): Omit<A, keyof B> & B {
  return Object.assign({}, base, fields) as Omit<A, keyof B> & B;
}
