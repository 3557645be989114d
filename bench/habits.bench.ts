/**
 * A model that keeps one formatting habit on every reply, across multi-step tasks: for each habit class
 * (REPLY_HABITS), the share of tasks that end with the right answer and the mean LLM calls per task,
 * next to the clean minimum (one call per tool step plus the answer). The scripted model behaves like a
 * stubborn real one: after a correction it writes the same habit again, and when an observation is not
 * the one its call should give (the input was misread) it sends the same call again.
 *
 * Run: node --import tsx bench/habits.bench.ts [tasks per habit, default 60]
 */
import { z } from 'zod';
import { REPLY_HABITS, type ReplyHabit } from '../src/core/index.js';
import { Agent, defineTool, type ModelRequest, scriptedModel } from '../src/index.js';
import { mulberry32 } from '../src/llm/index.js';

const TASKS = Number(process.argv[2] ?? 60);
const MAX_STEPS = 10;

const TABLE: Record<string, number> = {
  Paris: 21,
  'New York': 34,
  Tokyo: 13,
  'São Paulo': 55,
  Berlin: 8,
  'Cape Town': 89,
  Lima: 5,
  'Kuala Lumpur': 144,
};
const KEYS = Object.keys(TABLE);

const lookup = defineTool({
  name: 'lookup',
  description: 'The population index of a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => {
    const value = TABLE[city];
    if (value === undefined) throw new Error(`no city named "${city}"`);
    return value;
  },
});
const sum = defineTool({
  name: 'sum',
  description: 'Adds a list of numbers.',
  input: z.object({ numbers: z.array(z.number()) }),
  run: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});

/** One move of a task: a tool call (with the observation it must give) or the answer. */
type Move = { tool: 'lookup' | 'sum'; input: Record<string, unknown>; expect: string } | { answer: string };

/** A task: look up two or three cities, add their indexes, answer the total. */
function makeTask(random: () => number): Move[] {
  const count = 2 + Math.floor(random() * 2);
  const cities = [...KEYS].sort(() => random() - 0.5).slice(0, count);
  const values = cities.map((c) => TABLE[c]);
  const total = values.reduce((a, b) => a + b, 0);
  return [
    ...cities.map((city, i) => ({ tool: 'lookup' as const, input: { city }, expect: String(values[i]) })),
    { tool: 'sum', input: { numbers: values }, expect: String(total) },
    { answer: `The total is ${total}.` },
  ];
}

const json = (value: unknown) => JSON.stringify(value);
/** The plain-text input a model writes for a one-argument call (`Paris`), else the JSON. */
const plain = (input: Record<string, unknown>) => (typeof input.city === 'string' ? input.city : json(input));

/** How a model with each habit writes a move. `n` varies the habit's form from step to step. */
const WRITE: Record<ReplyHabit | 'clean', (move: Move, n: number) => string> = {
  clean: (m) =>
    'answer' in m
      ? `Thought: I know it now.\nFinal Answer: ${m.answer}`
      : `Thought: next step.\nAction: ${m.tool}\nAction Input: ${json(m.input)}`,
  fenced_reply: (m, n) => `\`\`\`${n % 2 ? 'text' : ''}\n${WRITE.clean(m, n)}\n\`\`\``,
  trailing_commentary: (m, n) =>
    'answer' in m
      ? WRITE.clean(m, n)
      : n % 2
        ? `Thought: next step.\nAction: ${m.tool}\nAction Input: ${plain(m.input)} (this is the value the task needs)`
        : `Thought: next step.\nAction: ${m.tool}\nAction Input: ${plain(m.input)}\n\nThis gives me what I need for the next step.`,
  quoted_input: (m, n) =>
    'answer' in m
      ? WRITE.clean(m, n)
      : `Thought: next step.\nAction: ${m.tool}\nAction Input: ${['`', "'", '"'][n % 3]}${plain(m.input)}${['`', "'", '"'][n % 3]}`,
  decorated_tool_name: (m, n) =>
    'answer' in m
      ? WRITE.clean(m, n)
      : `Thought: next step.\nAction: ${[`${m.tool}()`, `**${m.tool}**`, `\`${m.tool}\``, `[${m.tool}]`][n % 4]}\nAction Input: ${json(m.input)}`,
  foreign_keywords: (m) =>
    'answer' in m
      ? `Thought: I can answer.\nAnswer: ${m.answer}`
      : `Thought: next step.\nAction: ${m.tool}\nInput: ${json(m.input)}`,
  json_envelope: (m, n) =>
    'answer' in m
      ? WRITE.clean(m, n)
      : json(
          [
            { name: m.tool, parameters: m.input },
            { tool_call: { name: m.tool, arguments: m.input } },
            { function: { name: m.tool, arguments: json(m.input) } },
            { tool: m.tool, tool_input: m.input },
          ][n % 4],
        ),
  structured_input: (m, n) =>
    'answer' in m || m.tool !== 'sum'
      ? WRITE.clean(m, n)
      : `Thought: add them.\nAction: sum\nAction Input: ${json(m.input.numbers)}`,
  special_tokens: (m, n) => {
    if ('answer' in m || n % 3 === 0)
      return `${WRITE.clean(m, n)}${['<|im_end|>', '<|eot_id|>', '<|end|>', '</s>'][n % 4]}`;
    return n % 3 === 1
      ? `<|tool_calls_section_begin|><|tool_call_begin|>functions.${m.tool}:0<|tool_call_argument_begin|>${json(m.input)}<|tool_call_end|><|tool_calls_section_end|>`
      : `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${m.tool}\n\`\`\`json\n${json(m.input)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
  },
  no_action: (m, n) =>
    'answer' in m
      ? `Thought: no tool is needed now.\nAction: ${['None', 'N/A', 'none (direct answer)'][n % 3]}\nFinal Answer: ${m.answer}`
      : WRITE.clean(m, n),
};

/**
 * The scripted model for one task and habit: the next move is the first whose observation has not come
 * back right; a correction or a wrong observation makes it send the same move again, with the same habit.
 */
function stubbornModel(task: Move[], habit: ReplyHabit | 'clean') {
  return scriptedModel((request: ModelRequest, call: number) => {
    const observations = request.messages
      .filter((m) => m.role === 'user' && typeof m.content === 'string' && m.content.startsWith('Observation:'))
      .map((m) => String(m.content).slice('Observation:'.length).trim());
    let next = 0;
    for (const seen of observations) {
      const move = task[next];
      if ('expect' in move && seen === move.expect) next += 1;
    }
    return WRITE[habit](task[next], call);
  });
}

async function runHabit(habit: ReplyHabit | 'clean') {
  const random = mulberry32(17);
  let solved = 0;
  let calls = 0;
  let minimum = 0;
  for (let t = 0; t < TASKS; t++) {
    const task = makeTask(random);
    const model = stubbornModel(task, habit);
    const agent = new Agent({ model, tools: [lookup, sum], protocol: 'react', maxSteps: MAX_STEPS });
    const result = await agent.run('Add up the population indexes of the cities.');
    const answer = (task.at(-1) as { answer: string }).answer;
    if (result.status === 'done' && result.output === answer) solved += 1;
    calls += result.usage.llmCalls;
    minimum += task.length;
  }
  return { habit, success: solved / TASKS, calls: calls / TASKS, minimum: minimum / TASKS };
}

const rows = [];
for (const habit of ['clean', ...REPLY_HABITS] as const) rows.push(await runHabit(habit));
console.log(`${TASKS} tasks per habit (2–3 lookups, a sum, the answer), react protocol, max ${MAX_STEPS} steps\n`);
console.log(
  `${'habit'.padEnd(22)} ${'success'.padStart(8)} ${'calls/task'.padStart(11)} ${'minimum'.padStart(8)} ${'extra'.padStart(6)}`,
);
for (const r of rows) {
  console.log(
    `${r.habit.padEnd(22)} ${`${(100 * r.success).toFixed(1)}%`.padStart(8)} ${r.calls.toFixed(2).padStart(11)} ${r.minimum.toFixed(2).padStart(8)} ${(r.calls - r.minimum).toFixed(2).padStart(6)}`,
  );
}
const habitRows = rows.filter((r) => r.habit !== 'clean');
const worst = Math.min(...habitRows.map((r) => r.success));
const extra = habitRows.reduce((n, r) => n + r.calls - r.minimum, 0) / habitRows.length;
console.log(
  `\nworst habit success ${(100 * worst).toFixed(1)}% (target ≥ 97%), mean extra calls per task ${extra.toFixed(2)} (target ≤ 0.1)`,
);
