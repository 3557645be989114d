/**
 * Real replies of many models to tool-calling questions, read the way a user without a tool-call
 * parser would get them: each reply goes through `readToolCalls`, and through an `Agent` in the json,
 * react and native protocols as that model's text reply (tools built with `jsonSchemaTool` from the
 * question's function docs). Scores the calls that ran against the questions' possible answers,
 * Berkeley Function Calling Leaderboard style (name, required and allowed parameters, each value one
 * of the possible ones once coerced to the tool's schema; several calls in any order; no call at all
 * on the no-call questions), per model and overall, next to the per-model decoders' own scores.
 *
 * Data: a BFCL layout under REAL_REPLIES_DIR (default test/fixtures/real-replies):
 *   data/<prefix><category>.json              questions (JSON lines: id, question, function)
 *   data/possible_answer/<prefix><category>.json   possible answers (id, ground_truth)
 *   result/<model>/<prefix><category>_result.json  replies (id, result); only text replies are read
 *   score/<model>/…<category>_score.json      optional: the per-model decoder's score (first line)
 * with prefix `gorilla_openfunctions_v1_test_` (BFCL v1/v2) or `BFCL_v3_` (v3). Categories read:
 * simple, multiple(_function), parallel(_function), parallel_multiple(_function), their live_ kinds
 * (v3), and the no-call ones, relevance (v1) and irrelevance / live_irrelevance (v3).
 *
 * Run: node --import tsx bench/real-replies.bench.ts [--models a,b] [--limit N] [--protocols json,react]
 *      [--reader-only] [--show-misses protocol|*:model|*:N[:lost]]
 *      (`lost`: only replies the model's own decoder read right)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readToolCalls } from '../src/entries/protocols.js';
import { ToolRegistry } from '../src/entries/tools.js';
import { Agent, type AnyTool, jsonSchemaTool, scriptedModel } from '../src/index.js';

type Protocol = 'json' | 'react' | 'native';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface FunctionDoc {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}
interface Question {
  id: string;
  category: string;
  functions: FunctionDoc[];
  /** Possible calls (name → parameter → possible values); empty for a no-call question. */
  answer: { name: string; params: Record<string, Json[]> }[];
  noCall: boolean;
}
interface Ran {
  name: string;
  input: unknown;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? '') : undefined;
};
const ROOT = process.env.REAL_REPLIES_DIR ?? join(import.meta.dirname, '..', 'test', 'fixtures', 'real-replies');
const LIMIT = Number(flag('limit') ?? Number.POSITIVE_INFINITY);
const ONLY_MODELS = flag('models')?.split(',');
const READER_ONLY = args.includes('--reader-only');
const PROTOCOLS: Protocol[] = READER_ONLY
  ? []
  : ((flag('protocols')?.split(',') as Protocol[] | undefined) ?? ['json', 'react', 'native']);
const SHOW = flag('show-misses')?.split(':');

const PREFIXES = ['gorilla_openfunctions_v1_test_', 'BFCL_v3_', 'BFCL_v4_'];
const CALL_CATEGORIES = [
  'simple',
  'multiple_function',
  'multiple',
  'parallel_function',
  'parallel',
  'parallel_multiple_function',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
];
const NO_CALL_CATEGORIES = ['relevance', 'irrelevance', 'live_irrelevance'];

function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** Ground truth as possible calls: v1 keys calls by name (`f_1`, `f_2` when repeated), v3 lists them. */
function possibleCalls(truth: unknown, names: Set<string>): Question['answer'] {
  const entries: [string, unknown][] = Array.isArray(truth)
    ? truth.flatMap((one) => Object.entries(one as object))
    : Object.entries(truth as object);
  return entries.map(([key, params]) => ({
    name: names.has(key) ? key : key.replace(/[ _]\d+$/, ''),
    params: params as Record<string, Json[]>,
  }));
}

function loadQuestions(): Map<string, Question> {
  const questions = new Map<string, Question>();
  const dataDir = join(ROOT, 'data');
  for (const prefix of PREFIXES) {
    for (const category of [...CALL_CATEGORIES, ...NO_CALL_CATEGORIES]) {
      const path = join(dataDir, `${prefix}${category}.json`);
      if (!existsSync(path)) continue;
      const noCall = NO_CALL_CATEGORIES.includes(category);
      const answers = new Map<string, unknown>();
      const answerPath = join(dataDir, 'possible_answer', `${prefix}${category}.json`);
      if (!noCall) {
        if (!existsSync(answerPath)) continue;
        for (const a of jsonLines(answerPath)) answers.set(String(a.id), a.ground_truth);
      }
      for (const q of jsonLines(path)) {
        const functions = (Array.isArray(q.function) ? q.function : [q.function]) as FunctionDoc[];
        const id = String(q.id);
        const names = new Set(functions.map((f) => f.name));
        questions.set(`${category}/${id}`, {
          id,
          category,
          functions,
          answer: noCall ? [] : possibleCalls(answers.get(id), names),
          noCall,
        });
      }
    }
  }
  return questions;
}

interface Reply {
  model: string;
  key: string;
  text: string;
}

function loadReplies(questions: Map<string, Question>): Reply[] {
  const resultDir = join(ROOT, 'result');
  const replies: Reply[] = [];
  for (const model of readdirSync(resultDir).sort()) {
    if (ONLY_MODELS && !ONLY_MODELS.includes(model)) continue;
    const files = walk(join(resultDir, model))
      .map((file) => ({ category: categoryOf(file, '_result.json'), lines: [] as Record<string, unknown>[], file }))
      .filter((f) => f.category !== undefined);
    for (const f of files) f.lines = jsonLines(f.file);
    const all = files.flatMap((f) => f.lines);
    // A model whose replies came through a provider's function calling is not a text model: skip it.
    if (all.filter((l) => typeof l.result === 'string').length * 2 < all.length) continue;
    for (const { category, lines } of files) {
      let taken = 0;
      for (const line of lines) {
        const key = `${category}/${line.id}`;
        // Only text replies: a result already decoded by a provider's function calling is not one.
        if (typeof line.result !== 'string' || !questions.has(key)) continue;
        if (taken++ >= LIMIT) break;
        replies.push({ model, key, text: line.result });
      }
    }
  }
  return replies;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function categoryOf(file: string, suffix: string): string | undefined {
  const base = file.split('/').pop() ?? '';
  if (!base.endsWith(suffix)) return undefined;
  let category = base.slice(0, -suffix.length);
  for (const prefix of PREFIXES) if (category.startsWith(prefix)) category = category.slice(prefix.length);
  return [...CALL_CATEGORIES, ...NO_CALL_CATEGORIES].includes(category) ? category : undefined;
}

/** The questions the per-model decoder got wrong (`category/id`), from its score files' lines. */
function decoderMisses(model: string): Set<string> {
  const misses = new Set<string>();
  const dir = join(ROOT, 'score', model);
  if (!existsSync(dir)) return misses;
  for (const file of walk(dir)) {
    const category = categoryOf(file, '_score.json');
    if (!category) continue;
    for (const line of jsonLines(file).slice(1)) {
      const prompt = line.prompt as { id?: string } | undefined;
      // v1 score lines number the questions from 1; later ones carry the question's id.
      const id = prompt?.id ?? (typeof line.id === 'number' ? `${category}_${line.id - 1}` : String(line.id));
      misses.add(`${category}/${id}`);
    }
  }
  return misses;
}

/** The per-model decoder's score, where the data holds it: correct and total per category. */
function decoderScores(model: string): Map<string, { correct: number; total: number }> {
  const scores = new Map<string, { correct: number; total: number }>();
  const dir = join(ROOT, 'score', model);
  if (!existsSync(dir)) return scores;
  for (const file of walk(dir)) {
    const category = categoryOf(file, '_score.json');
    if (!category) continue;
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]);
    if (typeof first.correct_count === 'number') {
      scores.set(category, { correct: first.correct_count, total: first.total_count });
    }
  }
  return scores;
}

// --- scoring, BFCL style --------------------------------------------------------------------------

/** BFCL's string normalization: case, spaces and `,./-_*^` do not count. */
function standardize(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}

function sameValue(value: unknown, possible: Json): boolean {
  if (typeof possible === 'string') return typeof value === 'string' && standardize(value) === standardize(possible);
  if (typeof possible === 'number') return typeof value === 'number' && value === possible;
  if (typeof possible === 'boolean' || possible === null) return value === possible;
  if (Array.isArray(possible)) {
    return Array.isArray(value) && value.length === possible.length && possible.every((p, i) => sameValue(value[i], p));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // A dict's possible answer lists possible values per key.
  const given = value as Record<string, unknown>;
  for (const [key, options] of Object.entries(possible)) {
    const choices = Array.isArray(options) ? options : [options];
    if (!(key in given)) {
      if (!choices.includes('')) return false;
      continue;
    }
    if (!choices.some((c) => sameValue(given[key], c))) return false;
  }
  return Object.keys(given).every((key) => key in possible);
}

function matchesCall(ran: Ran, want: Question['answer'][number], doc: FunctionDoc | undefined): boolean {
  if (ran.name !== want.name) return false;
  const input = (ran.input ?? {}) as Record<string, unknown>;
  if (typeof input !== 'object' || Array.isArray(input)) return false;
  const required = (doc?.parameters?.required as string[] | undefined) ?? [];
  for (const key of required) if (!(key in input) && !(want.params[key] ?? []).includes('')) return false;
  for (const [key, value] of Object.entries(input)) {
    const options = want.params[key];
    if (!options) return false;
    if (!options.some((o) => sameValue(value, o))) return false;
  }
  for (const [key, options] of Object.entries(want.params)) {
    if (!(key in input) && !options.includes('')) return false;
  }
  return true;
}

/** Right when the calls that ran are the possible calls, in any order (none at all for a no-call question). */
function scoreCalls(question: Question, ran: Ran[]): boolean {
  if (question.noCall) return ran.length === 0;
  if (ran.length !== question.answer.length) return false;
  const docs = new Map(question.functions.map((f) => [f.name, f]));
  const used = new Set<number>();
  const place = (i: number): boolean => {
    if (i === ran.length) return true;
    for (let j = 0; j < question.answer.length; j++) {
      if (used.has(j) || !matchesCall(ran[i], question.answer[j], docs.get(question.answer[j].name))) continue;
      used.add(j);
      if (place(i + 1)) return true;
      used.delete(j);
    }
    return false;
  };
  return place(0);
}

// --- reading -------------------------------------------------------------------------------------

let ranNow: Ran[] = [];
const toolCache = new Map<string, AnyTool[] | Error>();

/** The question's functions as tools, built as a user would: `jsonSchemaTool` with the docs' parameters. */
function toolsFor(question: Question): AnyTool[] | Error {
  const key = `${question.category}/${question.id}`;
  let tools = toolCache.get(key);
  if (!tools) {
    try {
      tools = question.functions.map((f) =>
        jsonSchemaTool({
          name: f.name,
          description: f.description ?? f.name,
          parameters: (f.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
          run: (input) => {
            ranNow.push({ name: f.name, input });
            return 'ok';
          },
        }),
      );
    } catch (error) {
      tools = error as Error;
    }
    toolCache.set(key, tools);
  }
  return tools;
}

/** The calls `readToolCalls` finds, each coerced to its tool's schema where the tool reads it. */
function readerCalls(text: string, question: Question, tools: AnyTool[] | Error): Ran[] {
  const read = readToolCalls(text, { tools: question.functions.map((f) => f.name) });
  return read.calls.map((call) => {
    // Names matched as the agent's registry matches them (`weather_get` for `weather.get`).
    const registry = tools instanceof Error ? undefined : new ToolRegistry(tools);
    const found = registry?.lookup(call.name);
    const tool = found?.ok ? found.tool : undefined;
    const parsed = tool?.parse(call.input);
    return { name: tool?.name ?? call.name, input: parsed?.ok ? parsed.value : call.input };
  });
}

const FINAL: Record<Protocol, string> = {
  json: '{"action": "Final Answer", "action_input": "Done."}',
  react: 'Thought: I have the result.\nFinal Answer: Done.',
  native: 'Done.',
};

async function agentCalls(text: string, tools: AnyTool[] | Error, protocol: Protocol): Promise<Ran[] | Error> {
  if (tools instanceof Error) return tools;
  ranNow = [];
  const model = scriptedModel((_request, index) => (index === 0 ? text : FINAL[protocol]), {
    streamChunkSize: 1 << 20,
  });
  const agent = new Agent({ model, tools, protocol, maxSteps: 3 });
  try {
    await agent.run('question');
  } catch (error) {
    return error as Error;
  }
  return ranNow;
}

// --- run -----------------------------------------------------------------------------------------

interface Tally {
  right: number;
  total: number;
  noCallTotal: number;
  falseCalls: number;
}
const tally = (): Tally => ({ right: 0, total: 0, noCallTotal: 0, falseCalls: 0 });
const pct = (t: { right: number; total: number }) => (t.total ? (100 * t.right) / t.total : 0);

function add(t: Tally, question: Question, ran: Ran[] | Error): boolean {
  const right = !(ran instanceof Error) && scoreCalls(question, ran);
  t.total++;
  if (right) t.right++;
  if (question.noCall) {
    t.noCallTotal++;
    if (!(ran instanceof Error) && ran.length > 0) t.falseCalls++;
  }
  return right;
}

const missCache = new Map<string, Set<string>>();
function decoderMissesOf(model: string): Set<string> {
  let misses = missCache.get(model);
  if (!misses) {
    misses = decoderMisses(model);
    missCache.set(model, misses);
  }
  return misses;
}

function missLine(reply: Reply, row: string, ran: Ran[] | Error, question: Question): string {
  const got = JSON.stringify(ran instanceof Error ? ran.message : ran).slice(0, 400);
  return `--- ${reply.model} ${reply.key} [${row}]\n${reply.text.slice(0, 600)}\n=> ran ${got}\n=> want ${JSON.stringify(question.answer).slice(0, 400)}`;
}

async function main() {
  const questions = loadQuestions();
  const replies = loadReplies(questions);
  if (replies.length === 0) {
    console.log(`No text replies with questions under ${ROOT}: see the header of this file for the layout.`);
    return;
  }
  const rows = ['reader', ...PROTOCOLS] as const;
  const perModel = new Map<string, Record<string, Tally>>();
  const overall: Record<string, Tally> = Object.fromEntries(rows.map((r) => [r, tally()]));
  const misses: string[] = [];
  const errors = new Map<string, number>();
  const started = performance.now();
  for (const reply of replies) {
    const question = questions.get(reply.key) as Question;
    const tools = toolsFor(question);
    if (tools instanceof Error) errors.set(tools.message, (errors.get(tools.message) ?? 0) + 1);
    let model = perModel.get(reply.model);
    if (!model) {
      model = Object.fromEntries(rows.map((r) => [r, tally()]));
      perModel.set(reply.model, model);
    }
    for (const row of rows) {
      const ran =
        row === 'reader' ? readerCalls(reply.text, question, tools) : await agentCalls(reply.text, tools, row);
      add(overall[row], question, ran);
      const right = add(model[row], question, ran);
      const shown = SHOW && (SHOW[0] === row || SHOW[0] === '*') && (SHOW[1] === reply.model || SHOW[1] === '*');
      // `lost`: only the replies the model's own decoder read right.
      if (shown && SHOW[3] === 'lost' && !decoderMissesOf(reply.model).has(reply.key)) {
        if (!right) misses.push(missLine(reply, row, ran, question));
      } else if (!right && shown && SHOW[3] !== 'lost') {
        misses.push(missLine(reply, row, ran, question));
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;

  console.log(`Real replies: ${replies.length} from ${perModel.size} models under ${ROOT} (${seconds.toFixed(0)} s)\n`);
  const head = ['model', 'replies', 'decoders', ...rows, ...rows.map((r) => `false:${r}`), 'false:decoders'];
  console.log(head.join('\t'));
  const atLeast: Record<string, number> = Object.fromEntries(rows.map((r) => [r, 0]));
  let withDecoder = 0;
  const decoderAll = { right: 0, total: 0, noCallTotal: 0, falseCalls: 0 };
  for (const [model, t] of perModel) {
    const scores = decoderScores(model);
    const seen = new Set(replies.filter((r) => r.model === model).map((r) => r.key.split('/')[0]));
    let dr = 0;
    let dt = 0;
    let dFalse = 0;
    for (const category of seen) {
      const s = scores.get(category);
      if (!s) continue;
      dr += s.correct;
      dt += s.total;
      if (NO_CALL_CATEGORIES.includes(category)) dFalse += s.total - s.correct;
    }
    // The decoders' scores count every reply; compare only when this run read them all.
    const decoder = dt > 0 && dt === t.reader.total ? (100 * dr) / dt : undefined;
    if (decoder !== undefined) {
      withDecoder++;
      decoderAll.right += dr;
      decoderAll.total += dt;
      decoderAll.falseCalls += dFalse;
      for (const row of rows) if (pct(t[row]) >= decoder - 1e-9) atLeast[row]++;
    }
    console.log(
      [
        model,
        t.reader.total,
        decoder === undefined ? '-' : decoder.toFixed(1),
        ...rows.map((r) => pct(t[r]).toFixed(1)),
        ...rows.map((r) => t[r].falseCalls),
        decoder === undefined ? '-' : dFalse,
      ].join('\t'),
    );
  }
  console.log(
    [
      'OVERALL',
      overall.reader.total,
      decoderAll.total ? pct(decoderAll).toFixed(1) : '-',
      ...rows.map((r) => pct(overall[r]).toFixed(1)),
      ...rows.map((r) => overall[r].falseCalls),
      decoderAll.total ? decoderAll.falseCalls : '-',
    ].join('\t'),
  );
  if (withDecoder > 0) {
    console.log(
      `\nAt or above the per-model decoders: ${rows.map((r) => `${r} ${atLeast[r]}/${withDecoder}`).join(', ')} models`,
    );
  }
  console.log(`No-call replies: ${overall.reader.noCallTotal}; false calls counted per row above.`);
  for (const [message, count] of errors) console.log(`tools not built (${count} questions): ${message.slice(0, 200)}`);
  if (misses.length) console.log(`\n${misses.slice(0, Number(SHOW?.[2] ?? 20)).join('\n')}`);
}

await main();
