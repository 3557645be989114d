/**
 * How often `toolCalls` gives the verdict of the function-calling leaderboard's own checker (BFCL's
 * ast_checker.py), reply by reply, over replies made for every case of eight BFCL v4 categories: the
 * right calls and variations of them (see bench/bfcl-agreement/generate.py, which runs the checker).
 * Two readings of the expected calls: as JSON text (`readExpectedCalls`: literals kept, as the checker's
 * json.loads reads them) and parsed by JavaScript (`5.0` read as `5`).
 *
 * Run (Python 3 and a clone of github.com/ShishirPatil/gorilla; nothing else to install):
 *   python3 bench/bfcl-agreement/generate.py GORILLA_CHECKOUT /tmp/bfcl-cases.jsonl
 *   npx tsx bench/bfcl-agreement.bench.ts /tmp/bfcl-cases.jsonl
 */
import { readFileSync } from 'node:fs';
import {
  type ActualCall,
  checkToolCalls,
  readExpectedCalls,
  type ToolSchema,
  toExpectedCall,
} from '../src/eval/index.js';

interface Reply {
  category: string;
  id: string;
  functions: ToolSchema[];
  /** The case's possible answers as the leaderboard writes them, as JSON text. */
  ground_truth: string;
  calls: ActualCall[];
  /** The checker's verdict. */
  valid: boolean;
}

const file = process.argv[2];
if (!file) {
  console.error(
    'usage: npx tsx bench/bfcl-agreement.bench.ts CASES.jsonl (written by bench/bfcl-agreement/generate.py)',
  );
  process.exit(2);
}
const replies = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Reply);

const readings = {
  'expected as JSON text (readExpectedCalls)': (r: Reply) => readExpectedCalls(r.ground_truth),
  'expected parsed by JavaScript': (r: Reply) =>
    (JSON.parse(r.ground_truth) as Parameters<typeof toExpectedCall>[0][]).map(toExpectedCall),
};
console.log(
  `${replies.length.toLocaleString('en')} replies, ${replies.filter((r) => r.valid).length.toLocaleString('en')} of them right by the checker`,
);
for (const [label, expectedOf] of Object.entries(readings)) {
  let agree = 0;
  const differ = new Map<string, { count: number; example: string }>();
  const started = performance.now();
  for (const reply of replies) {
    const verdict = checkToolCalls(reply.calls, expectedOf(reply), { tools: reply.functions });
    if (verdict.valid === reply.valid) {
      agree++;
      continue;
    }
    const key = `checker ${reply.valid ? 'right' : 'wrong'}, toolCalls ${verdict.valid ? 'right' : `wrong (${verdict.errorType})`}`;
    const seen = differ.get(key) ?? {
      count: 0,
      example: `${reply.id}: ${JSON.stringify(reply.calls)} ${verdict.error ?? ''}`,
    };
    seen.count++;
    differ.set(key, seen);
  }
  const ms = performance.now() - started;
  console.log(
    `${label}: the same verdict on ${agree.toLocaleString('en')} of ${replies.length.toLocaleString('en')} (${((100 * agree) / replies.length).toFixed(3)}%), ${Math.round(replies.length / (ms / 1000)).toLocaleString('en')} replies/s`,
  );
  for (const [key, { count, example }] of differ) console.log(`  ${count} × ${key}; e.g. ${example.slice(0, 400)}`);
}
