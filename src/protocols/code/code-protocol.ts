import type { Protocol } from '../protocol.js';
import { renderSystemPrompt } from '../shared/prompt-template.js';
import { textProtocol } from '../shared/text-protocol.js';
import { CODE_TOOL, parseCodeAction } from './parse-code.js';
import { codePrompt } from './prompt.js';
import { callableTools, toolDeclarations } from './tool-declarations.js';

const text = textProtocol({ name: 'code', templates: codePrompt, parse: parseCodeAction });

/**
 * The code protocol (CodeAct): the prompt declares the tools as TypeScript, each reply is a thought
 * and one fenced JavaScript block, which runs as a `run_code` call in the sandbox; what it logs and
 * returns is the observation, and `final_answer(value)` inside it ends the run. An agent takes it with
 * the `run_code` tool from `codeAct()` (`thinkflow/code`).
 */
export const codeProtocol: Protocol = {
  ...text,
  systemPrompt(ctx) {
    const tools = callableTools(ctx.tools.filter((t) => t.name !== CODE_TOOL));
    const prompt = renderSystemPrompt(codePrompt[ctx.language], { ...ctx, tools });
    return prompt.replace('{declarations}', () => toolDeclarations(tools));
  },
};
