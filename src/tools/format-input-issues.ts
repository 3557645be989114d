import type { AnyTool, ToolInputIssue } from './tool.js';
import { toolInputShape } from './tool-input-shape.js';

/**
 * The observation for arguments that failed validation: each bad field, what was expected and
 * what came, then one valid example call, so the model can fix its next call.
 */
export function formatInputIssues(tool: AnyTool, issues: readonly ToolInputIssue[], input: unknown): string {
  const lines = [`Invalid input for tool "${tool.name}":`];
  for (const issue of issues) lines.push(`- ${describeIssue(issue, input)}`);
  return lines.concat(exampleLine(tool)).join('\n');
}

/** The observation for input that is not an object at all (and cannot be mapped to a field). */
export function formatNotAnObject(tool: AnyTool, received: unknown): string {
  return [`Invalid input for tool "${tool.name}": expected a JSON object of arguments, got ${preview(received)}.`]
    .concat(exampleLine(tool))
    .join('\n');
}

function exampleLine(tool: AnyTool): string[] {
  const example = toolInputShape(tool).example();
  return example === undefined ? [] : [`Example of a valid call: ${tool.name} ${example}`];
}

function describeIssue(issue: ToolInputIssue, input: unknown): string {
  const field = issue.path === '' ? 'input' : `"${issue.path}"`;
  const value = issue.path === '' ? input : valueAt(input, issue.path);
  if (value === undefined && issue.path !== '') {
    return `${field}: missing required field${issue.expected ? ` (expected ${issue.expected})` : ''}`;
  }
  if (issue.expected) return `${field}: expected ${issue.expected}, got ${preview(value)}`;
  return `${field}: ${issue.message}${issue.path === '' ? '' : ` (got ${preview(value)})`}`;
}

function valueAt(input: unknown, path: string): unknown {
  let value = input;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function preview(value: unknown): string {
  if (value === null) return 'null';
  const kind = Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `${kind} ${text}`;
}
