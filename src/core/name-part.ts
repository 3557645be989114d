import { sha256Hex } from './sha256-hex.js';

/** Characters of a name part before it is cut (60 CJK characters are 180 bytes, under every file system's 255). */
const MAX_CHARS = 60;

/**
 * Text (an experiment's or a case's name, in any language) as part of a file name or an id: letters and
 * digits of every script kept (`首都`, `café`), `_ . -` kept, each run of anything else (spaces, `/`,
 * `:`, quotes, control characters) one `_`, at most 60 characters. When that changes the text, 8 hex
 * digits of its hash follow (`a b` → `a_b~1c6cb7f8`), so two texts never share a name: `a b` and `a_b`,
 * or two Chinese names, once `首都` and `天气` all became `_`. `distinct: false` leaves the hash out, for
 * a name made unique otherwise (an id that ends with its time).
 *
 * @example
 * namePart('multiply'); // 'multiply'
 * namePart('法国的首都？'); // '法国的首都_~…'
 */
export function namePart(text: string, options: { distinct?: boolean } = {}): string {
  const safe = text.replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_');
  const cut = [...safe].slice(0, MAX_CHARS).join('');
  // `.` and `..` alone name a folder, not a file.
  const kept = cut === text && cut !== '.' && cut !== '..' && cut !== '';
  return kept || options.distinct === false ? cut || '_' : `${cut}~${sha256Hex(text).slice(0, 8)}`;
}
