/**
 * A count with its noun, singular for exactly one: `plural(1, 'tool')` is `1 tool`, `plural(3, 'LLM call')` is
 * `3 LLM calls`. Nouns whose plural is not `+s` pass it (`plural(n, 'entry', 'entries')`). English only: Chinese
 * messages have no plural and write the count as they are.
 *
 * @example
 * `Found ${plural(found.length, 'tool')}`; // 'Found 1 tool'
 */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
