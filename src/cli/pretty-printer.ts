import pc from 'picocolors';
import type { AgentEvent } from '../core/index.js';
import { createSpinner } from './spinner.js';

export interface PrettyPrinterOptions {
  stream?: NodeJS.WriteStream;
  /** Print model text as it streams, and observations in full. */
  verbose?: boolean;
}

/**
 * Prints a run as it happens: each Thought, Action and Observation in colour, a spinner while the
 * model works, and a one-line summary at the end. Returns an `onEvent` subscriber.
 */
export function createPrettyPrinter(options: PrettyPrinterOptions = {}): (event: AgentEvent) => void {
  const out = options.stream ?? process.stderr;
  const spinner = createSpinner(out);
  const limit = options.verbose ? Number.POSITIVE_INFINITY : 600;
  const line = (text: string) => {
    spinner.stop();
    out.write(`${text}\n`);
  };
  const nested = (event: AgentEvent) => (event.parentRunId ? pc.dim('  │ ') : '');

  return (event) => {
    const pad = nested(event);
    switch (event.type) {
      case 'model_request':
        spinner.start(pc.dim(`thinking (step ${event.step + 1}, ${event.model})…`));
        break;
      case 'model_delta':
        if (options.verbose) {
          spinner.stop();
          out.write(pc.dim(event.text));
        }
        break;
      case 'model_response':
        spinner.stop();
        if (options.verbose) out.write('\n');
        break;
      case 'thought':
        line(`${pad}${pc.cyan('Thought:')} ${event.text}`);
        break;
      case 'tool_start':
        line(`${pad}${pc.yellow('Action:')} ${event.tool} ${pc.dim(clip(JSON.stringify(event.input) ?? '', limit))}`);
        spinner.start(pc.dim(`running ${event.tool}…`));
        break;
      case 'tool_end': {
        const label = event.ok ? pc.green('Observation:') : pc.red('Observation (error):');
        line(`${pad}${label} ${clip(event.output, limit)} ${pc.dim(`(${event.ms} ms)`)}`);
        break;
      }
      case 'invalid_output':
        line(`${pad}${pc.red('Invalid reply:')} ${event.reason}`);
        break;
      case 'warning':
        line(`${pad}${pc.yellow('Warning:')} ${event.message}`);
        break;
      case 'context_summary':
        line(`${pad}${pc.dim(`Context: ${event.droppedSteps} older steps summarised`)}`);
        break;
      case 'memory_recall':
        if (event.memories.length) line(`${pad}${pc.dim(`Memory: recalled ${event.memories.length} item(s)`)}`);
        break;
      case 'run_end': {
        const { usage } = event;
        const status = event.status === 'done' ? pc.green(event.status) : pc.red(event.status);
        const tokens = `${usage.promptTokens + usage.completionTokens}${usage.estimated ? '~' : ''} tokens`;
        line(
          `${pad}${pc.dim('—')} ${status} ${pc.dim(`· ${usage.llmCalls} LLM calls · ${tokens} · ${event.durationMs} ms`)}`,
        );
        if (event.error && event.status !== 'done') line(`${pad}${pc.dim(event.error.message)}`);
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
