import { parseScript, type SimpleCommand } from './shell-commands.js';

/**
 * Which commands the `bash` tool runs, asks a person about, or refuses. Each entry is a command name
 * (`rm`, a glob like `git*`), optionally followed by words the command must carry, in any order, with
 * short flags matched letter by letter (`rm -rf` matches `rm -f -r x` and `rm -fr x`).
 */
export interface CommandPolicy {
  /** Commands that run without asking. When given, any other command needs approval. */
  allow?: string[];
  /** Commands that need a person's approval (the run pauses for it, durably). */
  ask?: string[];
  /** Commands refused outright; the model is told why and can try another way. */
  deny?: string[];
  /** What a script whose commands cannot be known before it runs gets (`eval "$x"`, `$cmd`). Default `ask`. */
  unknowable?: 'ask' | 'deny';
}

/** The policy's answer for one script, with the reason the model or the person sees. */
export type PolicyDecision = { decision: 'allow' } | { decision: 'ask' | 'deny'; reason: string; command?: string };

// Shell built-ins that only steer the shell itself; an allow list need not name them.
const SHELL_BUILTINS = new Set(
  'cd echo printf true false test [ [[ export local read set shift exit return pwd : break continue unset declare let wait'.split(
    ' ',
  ),
);

/**
 * Judges a script by every simple command it runs (`parseScript`), never by a pattern on its text:
 * deny wins over ask, ask over allow. A script that cannot be read fully is `unknowable`.
 *
 * @example
 * decideCommand({ deny: ['rm -rf'] }, 'echo ok && bash -c "rm -fr /"'); // { decision: 'deny', … }
 */
export function decideCommand(policy: CommandPolicy, script: string): PolicyDecision {
  const parsed = parseScript(script);
  const commands = parsed.commands;
  for (const command of commands) {
    const rule = firstMatch(policy.deny, command);
    if (rule)
      return { decision: 'deny', command: command.join(' '), reason: `\`${rule}\` is denied by the workspace policy` };
  }
  if (parsed.unknowable.length > 0) {
    return {
      decision: policy.unknowable ?? 'ask',
      reason: `the script's commands cannot all be known before it runs: ${parsed.unknowable.join('; ')}`,
    };
  }
  for (const command of commands) {
    const rule = firstMatch(policy.ask, command);
    if (rule) return { decision: 'ask', command: command.join(' '), reason: `\`${rule}\` needs approval` };
  }
  if (policy.allow) {
    for (const command of commands) {
      if (SHELL_BUILTINS.has(baseName(command[0])) || firstMatch(policy.allow, command)) continue;
      return {
        decision: 'ask',
        command: command.join(' '),
        reason: `\`${baseName(command[0])}\` is not in the allow list`,
      };
    }
  }
  return { decision: 'allow' };
}

function firstMatch(rules: string[] | undefined, command: SimpleCommand): string | undefined {
  return rules?.find((rule) => matches(rule, command));
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether a rule (`git push`, `rm -rf`, `py*`) matches a command's words. */
export function matches(rule: string, command: SimpleCommand): boolean {
  const [name, ...required] = rule.trim().split(/\s+/);
  const head = command[0] ?? '';
  if (!nameMatches(name, head) && !nameMatches(name, baseName(head))) return false;
  const args = command.slice(1);
  const letters = new Set(args.filter((a) => /^-[A-Za-z0-9]+$/.test(a)).flatMap((a) => [...a.slice(1)]));
  return required.every((word) =>
    /^-[A-Za-z0-9]+$/.test(word) ? [...word.slice(1)].every((l) => letters.has(l)) : args.includes(word),
  );
}

function nameMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const regex = new RegExp(`^${pattern.replace(/[.+^$()|[\]\\?{}]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return regex.test(name);
}
