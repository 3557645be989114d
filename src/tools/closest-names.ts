import { normalizeToolName } from './normalize-tool-name.js';

/**
 * The candidates nearest to `name` by edit distance (compared as forgiving tool-name keys), best first. Only names
 * close enough to be a plausible typo are returned (distance at most a third of the longer name,
 * and at least 2), or names that contain the other.
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const wanted = normalizeToolName(name);
  const scored: { name: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const other = normalizeToolName(candidate);
    const distance = editDistance(wanted, other);
    const limit = Math.max(2, Math.floor(Math.max(wanted.length, other.length) / 3));
    const contains = wanted.length >= 3 && (other.includes(wanted) || wanted.includes(other));
    if (distance <= limit || contains) scored.push({ name: candidate, distance: contains ? 0.5 : distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** Levenshtein distance with a single rolling row. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length];
}
