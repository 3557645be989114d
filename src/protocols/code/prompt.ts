import type { PromptTemplates } from '../shared/prompt-template.js';

/**
 * The code protocol's prompt text, in English and Chinese. `{declarations}` is replaced by the
 * tools' TypeScript declarations. Edit here, not in code.
 */
export const codePrompt: PromptTemplates = {
  en: {
    defaultInstructions:
      'You are a helpful assistant. Solve the task step by step by writing JavaScript that calls tools.',
    toolsHeading: '',
    argumentsLabel: '',
    format: `Each step, write a short thought, then one JavaScript code block:

Thought: what you will do and why
\`\`\`js
const result = await tools.some_tool({ key: "value" });
console.log(result);
\`\`\`

The code is the body of an async function. These tools are available in it:
\`\`\`ts
{declarations}
\`\`\`

Rules:
- Call tools only as \`await tools.<name>(input)\`; run independent calls at once with \`Promise.all\`.
- Do loops, sums and comparisons in code, not in your head.
- What the code logs with console.log (and returns) comes back in the next message as "Observation: ...".
- When you know the answer, call \`final_answer(value)\` in a code block: it ends the task.
- Plain JavaScript only: no require, import, fetch, process or files. A failed call throws an Error you can catch.`,
    formatNoTools: `Write a short thought, then one JavaScript code block that calls \`final_answer(value)\` with your answer:
\`\`\`js
final_answer("your answer");
\`\`\``,
    examplesHeading: 'Examples:',
    contextHeading: 'Context:',
    correction:
      'Your last reply could not be run: {reason}\nReply with "Thought: ..." and one ```js code block; call final_answer(value) in it when you have the answer.',
    finalAnswerRequest:
      'You have reached the step limit. Do not call any more tools. Reply now with one ```js block that calls final_answer(<your best answer>).',
    observationPrefix: 'Observation: ',
    example: `User: What do an apple and a pear cost together?
Assistant: Thought: I look up both prices at once and add them.
\`\`\`js
const [apple, pear] = await Promise.all([tools.price({ item: "apple" }), tools.price({ item: "pear" })]);
console.log(apple, pear);
final_answer(apple.usd + pear.usd);
\`\`\``,
  },
  zh: {
    defaultInstructions: '你是一个乐于助人的助手。请一步一步地解决任务，通过编写调用工具的 JavaScript 代码来完成。',
    toolsHeading: '',
    argumentsLabel: '',
    format: `每一步先写一句简短的思考，然后写一个 JavaScript 代码块：

思考：你要做什么，为什么
\`\`\`js
const result = await tools.some_tool({ key: "value" });
console.log(result);
\`\`\`

代码是一个 async 函数的函数体。其中可以使用这些工具：
\`\`\`ts
{declarations}
\`\`\`

规则：
- 只能用 \`await tools.<名称>(input)\` 调用工具；互不依赖的调用用 \`Promise.all\` 一起执行。
- 循环、求和、比较都在代码里做，不要心算。
- 代码用 console.log 输出的内容（以及返回值）会在下一条消息中以“观察：...”返回。
- 知道答案后，在代码块中调用 \`final_answer(value)\`，任务即结束。
- 只能写普通 JavaScript：没有 require、import、fetch、process 和文件。调用失败会抛出可以捕获的 Error。`,
    formatNoTools: `先写一句简短的思考，然后写一个调用 \`final_answer(value)\` 给出答案的 JavaScript 代码块：
\`\`\`js
final_answer("你的答案");
\`\`\``,
    examplesHeading: '示例：',
    contextHeading: '上下文：',
    correction:
      '你上一条回复无法运行：{reason}\n请回复“思考：...”和一个 ```js 代码块；得到答案时在其中调用 final_answer(value)。',
    finalAnswerRequest:
      '已达到步数上限。不要再调用任何工具。现在请回复一个调用 final_answer(<你的最佳答案>) 的 ```js 代码块。',
    observationPrefix: '观察：',
    example: `用户：一个苹果和一个梨一共多少钱？
助手：思考：我同时查两种水果的价格，然后相加。
\`\`\`js
const [apple, pear] = await Promise.all([tools.price({ item: "apple" }), tools.price({ item: "pear" })]);
console.log(apple, pear);
final_answer(apple.usd + pear.usd);
\`\`\``,
  },
};
