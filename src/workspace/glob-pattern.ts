/**
 * A glob as a regular expression over `/`-separated relative paths: `**` crosses folders, `*` and `?`
 * stay within one, `{a,b}` is either, `[abc]` is a class. Pure, so both backends match the same way.
 *
 * @example
 * globPattern('**\/*.csv').test('数据/销售.csv'); // true
 */
export function globPattern(glob: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{') {
      braces++;
      source += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (c === ',' && braces > 0) source += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) source += '\\[';
      else {
        source += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}${')'.repeat(braces)}$`, 'u');
}
