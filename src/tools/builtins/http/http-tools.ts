import type { AnyTool } from '../../tool.js';
import { type HttpGetOptions, httpGetTool } from './http-get-tool.js';

/** The http kit (`--tools http`): `http_get` alone, built from the shared options. */
export function httpTools(options: HttpGetOptions = {}): AnyTool[] {
  return [httpGetTool(options)];
}
