import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import type { ApprovalRequest } from '../tools/index.js';

/**
 * Approves tool calls at the terminal. Without a terminal (or with `--yes`) it answers without asking:
 * denied, unless `--yes` was given.
 */
export function terminalApprover(autoApprove: boolean): (request: ApprovalRequest) => Promise<boolean> {
  return async (request) => {
    if (autoApprove) return true;
    if (!process.stdin.isTTY) return false;
    const answer = await askLine(
      `${pc.yellow('Approve')} ${request.tool} ${pc.dim(JSON.stringify(request.input))}${request.question ? ` — ${request.question}` : ''}? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  };
}

/** Asks the user a question at the terminal (the `ask_user` tool). */
export async function terminalAsk(question: string): Promise<string> {
  if (!process.stdin.isTTY) return 'No user is available to answer; continue with your best judgement.';
  return askLine(`${pc.magenta('Question:')} ${question}\n> `);
}

async function askLine(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(prompt);
  } finally {
    rl.close();
  }
}
