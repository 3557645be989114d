/** Normalises a name for comparison: lower case, no spaces, underscores or dashes. */
export function squash(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}
