import type { JsonSchema, ToolSpec } from '../../core/index.js';
import { indexTerms, questionTerms, splitIdentifiers } from './tool-terms.js';

/** One tool found by a search, with its BM25 score. */
export interface ToolHit {
  spec: ToolSpec;
  score: number;
}

/** The fields of a tool that are searched, and how much a match in each weighs. */
const FIELDS = ['name', 'description', 'params'] as const;
const WEIGHTS = [2, 1, 0.3];
/** BM25's term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;

interface Doc {
  spec: ToolSpec;
  /** Its slot in the score array (reused after the tool is removed). */
  slot: number;
  /** Terms per field, with their counts. */
  terms: Map<string, number>[];
  lengths: number[];
}

/** The tools that have a term, with each one's saturated BM25F term frequency (times the idf at search). */
interface Postings {
  docs: Doc[];
  weights: number[];
}

/** Parameter names and descriptions, nested objects included: what a tool's input is about. */
function parameterText(schema: JsonSchema | undefined, depth = 0): string {
  const properties = (schema as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
  if (!properties || typeof properties !== 'object' || depth > 2) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const description = (value as { description?: unknown })?.description;
    parts.push(splitIdentifiers(name), typeof description === 'string' ? description : '');
    parts.push(parameterText(value, depth + 1));
  }
  return parts.filter(Boolean).join(' ');
}

function analyse(spec: ToolSpec): Doc {
  const texts = [spec.name, spec.description, parameterText(spec.parameters)];
  const terms = texts.map((text) => {
    const counts = new Map<string, number>();
    for (const term of indexTerms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  return { spec, slot: -1, terms, lengths: terms.map((t) => [...t.values()].reduce((a, b) => a + b, 0)) };
}

/**
 * A BM25F index over tools (name, description, parameter names and descriptions), kept in step with
 * a tool list by `sync`: only tools added, removed or changed since the last list are analysed again (a
 * registry hands out one frozen spec object per tool, so identity says what changed). A search reads
 * only the postings of the question's terms, so its cost grows with how many tools share those terms,
 * not with the size of the catalogue.
 */
export class ToolIndex {
  readonly #docs = new Map<string, Doc>();
  readonly #postings = new Map<string, Postings>();
  readonly #totalLengths = [0, 0, 0];
  readonly #freeSlots: number[] = [];
  #slots = 0;
  #scores = new Float64Array(0);
  /** The average field lengths the weights were computed with; they are computed again when these drift. */
  #weighedWith: number[] = [1, 1, 1];
  #weighedAt = 0;
  #synced: readonly ToolSpec[] | undefined;

  /** Makes the index hold exactly these tools (free when the list is the one it already holds). */
  sync(tools: readonly ToolSpec[]): void {
    if (tools === this.#synced) return;
    const seen = new Set<string>();
    for (const spec of tools) {
      seen.add(spec.name);
      const known = this.#docs.get(spec.name);
      if (known?.spec === spec) continue;
      if (known) this.#remove(known);
      this.#add(analyse(spec));
    }
    if (this.#docs.size > seen.size) {
      for (const doc of [...this.#docs.values()]) if (!seen.has(doc.spec.name)) this.#remove(doc);
    }
    // Field lengths move the weights only a little; weigh every posting again when the set grew or shrank by a tenth.
    if (Math.abs(this.#docs.size - this.#weighedAt) > this.#weighedAt / 10) this.#reweigh();
    this.#synced = tools;
  }

  /** The tools sharing a term with the query, best first, at most `limit`. */
  search(query: string, limit: number): ToolHit[] {
    const n = this.#docs.size;
    if (n === 0) return [];
    const scores = this.#scores;
    const touched: Doc[] = [];
    for (const term of questionTerms(query)) {
      const postings = this.#postings.get(term);
      if (!postings) continue;
      const df = postings.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const { docs, weights } = postings;
      for (let i = 0; i < docs.length; i++) {
        const slot = docs[i].slot;
        if (scores[slot] === 0) touched.push(docs[i]);
        scores[slot] += idf * weights[i];
      }
    }
    const best = topByScore(touched, scores, limit);
    for (const doc of touched) scores[doc.slot] = 0;
    return best;
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.#docs.size;
  }

  #weight(doc: Doc, counts: number[]): number {
    let tf = 0;
    for (let f = 0; f < FIELDS.length; f++) {
      if (counts[f]) tf += (WEIGHTS[f] * counts[f]) / (1 - B + (B * doc.lengths[f]) / this.#weighedWith[f]);
    }
    return (tf * (K1 + 1)) / (tf + K1);
  }

  #reweigh(): void {
    const n = this.#docs.size || 1;
    this.#weighedWith = this.#totalLengths.map((total) => total / n || 1);
    this.#weighedAt = this.#docs.size;
    for (const [term, postings] of this.#postings) {
      postings.weights = postings.docs.map((doc) => this.#weight(doc, fieldCounts(doc, term)));
    }
  }

  #add(doc: Doc): void {
    doc.slot = this.#freeSlots.pop() ?? this.#slots++;
    if (this.#scores.length < this.#slots) {
      const grown = new Float64Array(Math.max(64, this.#slots * 2));
      grown.set(this.#scores);
      this.#scores = grown;
    }
    this.#docs.set(doc.spec.name, doc);
    doc.lengths.forEach((length, f) => {
      this.#totalLengths[f] += length;
    });
    for (const term of new Set(doc.terms.flatMap((t) => [...t.keys()]))) {
      const postings = this.#postings.get(term) ?? { docs: [], weights: [] };
      if (postings.docs.length === 0) this.#postings.set(term, postings);
      postings.docs.push(doc);
      postings.weights.push(this.#weight(doc, fieldCounts(doc, term)));
    }
  }

  #remove(doc: Doc): void {
    this.#docs.delete(doc.spec.name);
    this.#freeSlots.push(doc.slot);
    doc.lengths.forEach((length, f) => {
      this.#totalLengths[f] -= length;
    });
    for (const term of new Set(doc.terms.flatMap((t) => [...t.keys()]))) {
      const postings = this.#postings.get(term);
      if (!postings) continue;
      const at = postings.docs.indexOf(doc);
      postings.docs.splice(at, 1);
      postings.weights.splice(at, 1);
      if (postings.docs.length === 0) this.#postings.delete(term);
    }
  }
}

const fieldCounts = (doc: Doc, term: string): number[] => doc.terms.map((t) => t.get(term) ?? 0);

/** The `limit` best-scored docs, best first, without sorting them all (a small sorted list, kept as it fills). */
function topByScore(docs: Doc[], scores: Float64Array, limit: number): ToolHit[] {
  const best: ToolHit[] = [];
  for (const doc of docs) {
    const score = scores[doc.slot];
    if (best.length === limit && score <= best[limit - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { spec: doc.spec, score });
    if (best.length > limit) best.pop();
  }
  return best;
}
