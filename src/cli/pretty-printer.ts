import pc from 'picocolors';
import { type AgentEvent, describeCompaction, plural } from '../core/index.js';
import { useColor } from './colors.js';
import { createSpinner } from './spinner.js';

export interface PrettyPrinterOptions {
  stream?: NodeJS.WriteStream;
  /** Print model text as it streams, and observations in full. */
  verbose?: boolean;
  /** Colour the tree. Default: `useColor(stream)`. */
  color?: boolean;
}

/**
 * Prints a run as it happens, as a tree: one branch per step (with the model's time and tokens), and
 * under it the thought, each action with its arguments, each observation with the tool's time; a
 * spinner while the model or a tool works (on a terminal only), and a one-line summary at the end.
 * Returns an `onEvent` subscriber.
 *
 * ```
 * step 1 · 3 ms · 120 tokens
 * ├─ thought      This needs arithmetic, so I will use the calculator.
 * ├─ action       calculator {"expression":"(15 + 7) * 3"}
 * └─ observation  66 · 2 ms
 * ```
 */
export function createPrettyPrinter(options: PrettyPrinterOptions = {}): (event: AgentEvent) => void {
  const out = options.stream ?? process.stderr;
  const c = pc.createColors(options.color ?? useColor(out));
  const spinner = createSpinner(out);
  const limit = options.verbose ? Number.POSITIVE_INFINITY : 600;
  // The last item of a step is drawn with └─, so each item waits until the next one shows it is not last.
  let pending: string | undefined;
  const write = (text: string) => {
    spinner.stop();
    out.write(`${text}\n`);
  };
  const flush = (last: boolean) => {
    if (pending === undefined) return;
    write(pending.replace('\0', last ? '└─' : '├─'));
    pending = undefined;
  };
  // Pad before colouring: escape codes would count as width.
  const item = (pad: string, label: string, paint: (s: string) => string, text: string) => {
    flush(false);
    pending = `${pad}${c.dim('\0')} ${paint(label.padEnd(13))}${text}`;
  };
  const nested = (event: AgentEvent) => (event.parentRunId ? c.dim('│   ') : '');

  return (event) => {
    const pad = nested(event);
    switch (event.type) {
      case 'model_request':
        flush(true);
        spinner.start(c.dim(`thinking (step ${event.step}, ${event.model})…`));
        break;
      case 'model_delta':
        if (options.verbose) {
          spinner.stop();
          out.write(c.dim(event.text));
        }
        break;
      case 'model_response': {
        spinner.stop();
        if (options.verbose) out.write('\n');
        const tokens = event.usage ? ` · ${event.usage.promptTokens + event.usage.completionTokens} tokens` : '';
        write(
          `${pad}${c.bold(`step ${event.step}`)}${c.dim(` · ${Math.round(event.ms)} ms${tokens}${event.cached ? ' · cached' : ''}`)}`,
        );
        break;
      }
      case 'thought':
        item(pad, 'thought', c.cyan, event.text.replace(/\s+/g, ' ').trim());
        break;
      case 'tool_start':
        item(pad, 'action', c.yellow, `${c.bold(event.tool)} ${c.dim(clip(JSON.stringify(event.input) ?? '', limit))}`);
        flush(false);
        spinner.start(c.dim(`running ${event.tool}…`));
        break;
      case 'tool_end': {
        item(
          pad,
          event.ok ? 'observation' : 'error',
          event.ok ? c.green : c.red,
          `${clip(event.output, limit)} ${c.dim(`· ${Math.round(event.ms)} ms`)}`,
        );
        break;
      }
      case 'final':
        item(pad, 'answer', c.green, c.dim(clip(event.output, 80)));
        break;
      case 'invalid_output':
        item(pad, 'invalid', c.red, event.reason);
        break;
      case 'warning':
        item(pad, 'warning', c.yellow, event.message);
        break;
      case 'context_summary':
        item(pad, 'context', c.dim, c.dim(`${event.droppedSteps} older steps summarised`));
        break;
      case 'context_compact':
        item(pad, 'context', c.dim, c.dim(describeCompaction(event)));
        break;
      case 'memory_recall':
        if (event.memories.length)
          item(pad, 'memory', c.dim, c.dim(`recalled ${plural(event.memories.length, 'item')}`));
        break;
      case 'run_end': {
        flush(true);
        const { usage } = event;
        const status = event.status === 'done' ? c.green(event.status) : c.red(event.status);
        const tokens = `${usage.promptTokens + usage.completionTokens}${usage.estimated ? '~' : ''} tokens`;
        write(
          `${pad}${status} ${c.dim(`· ${plural(usage.llmCalls, 'LLM call')} · ${tokens} · ${event.durationMs} ms`)}`,
        );
        if (event.error && event.status !== 'done') write(`${pad}${c.dim(event.error.message)}`);
        break;
      }
      default:
        break;
    }
  };
}

function clip(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}… (${flat.length} chars)` : flat;
}
