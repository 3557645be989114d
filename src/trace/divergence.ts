/** Where a re-run first differs from its trace. */
export interface Divergence {
  /** The step where the difference shows, numbered as the events number it. */
  step: number;
  /** What differs. */
  kind: 'model_request' | 'model_response' | 'tool_call' | 'tool_output' | 'final' | 'steps' | 'status' | 'extra_call';
  /** One readable sentence naming the difference. */
  message: string;
  expected?: string;
  actual?: string;
}

/** Text shortened for a divergence message. */
export function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
