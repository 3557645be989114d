import type { ContentPart } from '../core/index.js';

/** Severity of a message a tool logs to its caller, as MCP (RFC 5424) names them. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** One message of a model call a tool asks its caller to make. */
export interface SampleMessage {
  role: 'user' | 'assistant';
  /** Plain text, or one text, image or file part (audio arrives as a file part). */
  content: string | ContentPart;
}

/** A model call a tool asks its caller to make for it (MCP `sampling/createMessage`). */
export interface SampleRequest {
  messages: SampleMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  /** Hints about the model wanted (names tried in order), passed through as MCP model preferences. */
  modelPreferences?: {
    hints?: Array<{ name?: string }>;
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
}

/** The caller's model reply to a `SampleRequest`. */
export interface SampleResult {
  /** The reply's text (empty when it is an image or audio). */
  text: string;
  /** The reply as sent: text, image or audio. */
  content: { type: 'text'; text: string } | { type: 'image' | 'audio'; data: string; mediaType: string };
  /** Which model answered. */
  model: string;
  stopReason?: string;
}

/**
 * A question put to the person behind the caller (MCP `elicitation/create`): a form with a flat JSON
 * Schema of primitive fields, or a URL the person opens (to sign in, pay, consent) out of band.
 */
export type ElicitRequest =
  | {
      mode?: 'form';
      message: string;
      requestedSchema: {
        type: 'object';
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };
    }
  | {
      mode: 'url';
      message: string;
      url: string;
      /** Identifies the out-of-band exchange; the server may later report it complete. */
      elicitationId: string;
    };

/** The person's answer: accepted (with the form's values), declined, or dismissed. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}
