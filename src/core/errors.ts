/** Every code a thinkflow error can carry. */
export type ErrorCode =
  | 'config'
  | 'model_http'
  | 'model_timeout'
  | 'model_network'
  | 'model_parse'
  | 'model_aborted'
  | 'script_exhausted'
  | 'tool'
  | 'store'
  | 'dependency_unavailable'
  | 'not_found'
  | 'invalid_input'
  | 'replay_diverged';

export interface ThinkflowErrorOptions {
  message: string;
  code: ErrorCode;
  cause?: unknown;
}

/** Base of thinkflow's error tree. Thrown only for failures a person or the system must fix. */
export class ThinkflowError extends Error {
  readonly code: ErrorCode;
  constructor(options: ThinkflowErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'ThinkflowError';
    this.code = options.code;
  }
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Bad configuration: a missing API key, an unknown model spec, an unreadable file. */
export class ConfigError extends ThinkflowError {
  constructor(options: { message: string; cause?: unknown }) {
    super({ ...options, code: 'config' });
    this.name = 'ConfigError';
  }
}

export interface ModelErrorOptions {
  message: string;
  code?: Extract<ErrorCode, `model_${string}` | 'script_exhausted'>;
  provider: string;
  status?: number;
  retryable: boolean;
  /** The provider's own error message, if it sent one. Never contains credentials. */
  providerMessage?: string;
  /** Seconds the provider asked us to wait (Retry-After). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** A model call failed. `retryable` says whether trying again may help (429, 5xx, network). */
export class ModelError extends ThinkflowError {
  readonly provider: string;
  readonly status?: number;
  readonly retryable: boolean;
  readonly providerMessage?: string;
  readonly retryAfterSeconds?: number;
  constructor(options: ModelErrorOptions) {
    super({ message: options.message, code: options.code ?? 'model_http', cause: options.cause });
    this.name = 'ModelError';
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable;
    this.providerMessage = options.providerMessage;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      provider: this.provider,
      status: this.status,
      retryable: this.retryable,
      providerMessage: this.providerMessage,
    };
  }
}

/**
 * A fork that cannot start: no such run (`not_found`), or a step or edited messages it cannot start
 * from (`invalid_input`). The run it names is left as it was.
 */
export class ForkError extends ThinkflowError {
  constructor(options: { message: string; code: 'not_found' | 'invalid_input' }) {
    super(options);
    this.name = 'ForkError';
  }
}

/** A store (SQLite, Postgres, Redis) could not be opened, read or written. */
export class StoreError extends ThinkflowError {
  constructor(options: { message: string; cause?: unknown }) {
    super({ ...options, code: 'store' });
    this.name = 'StoreError';
  }
}

/** True for any thinkflow error, also across module copies (checks `name`/`code`, not only `instanceof`). */
export function isThinkflowError(value: unknown): value is ThinkflowError {
  if (value instanceof ThinkflowError) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    /Error$/.test((value as { name: string }).name) &&
    'toJSON' in value
  );
}

/** True for a ModelError (see isThinkflowError). */
export function isModelError(value: unknown): value is ModelError {
  return isThinkflowError(value) && (value as { name: string }).name === 'ModelError';
}

/** Turns anything thrown into a readable message (strings, objects, Errors). */
export function errorMessage(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
