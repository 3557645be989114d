import type { Command } from 'commander';
import { collectFlag } from './read-attachments.js';

/** `--token` and `--allowed-host`, as `serve`, `studio` and `mcp-serve` take them. */
export interface SecurityFlags {
  token?: string[];
  allowedHost?: string[];
}

/** Adds the flags every HTTP-serving command shares: bearer tokens and the extra host names it answers to. */
export function addSecurityFlags(command: Command): Command {
  return command
    .option(
      '--token <token>',
      'accept this bearer token (repeatable; also THINKFLOW_API_TOKENS=a,b); without any, any local process can call it',
      collectFlag,
    )
    .option(
      '--allowed-host <name>',
      'answer requests for this host name too, besides localhost/127.0.0.1/[::1] (repeatable; *.example.com for subdomains)',
      collectFlag,
    );
}
