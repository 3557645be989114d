/**
 * The one text analysis every BM25 path shares (tool routing, the SQLite and PostgreSQL memory stores,
 * `search_documents`): Chinese and Japanese have no spaces between words, so a run of their characters
 * is split into words with `Intl.Segmenter` (ICU's dictionary), and character bigrams are added where
 * the dictionary is unsure (runs of single-character segments, and inside words of three or more
 * characters, where a query may hold only part of the word). Text in other scripts is left as it is,
 * so Latin search behaves exactly as before.
 */

/** Characters of the scripts written without spaces: Han, Hiragana, Katakana, and their marks. */
const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3005\u3006\u30fc]/u;
const CJK_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3005\u3006\u30fc]+/gu;
const KANA = /[\p{sc=Hiragana}\p{sc=Katakana}]/u;

type Segmenter = { segment(text: string): Iterable<{ segment: string; isWordLike?: boolean }> };
const segmenters = new Map<string, Segmenter | null>();

/** One segmenter per language, made on first use; `null` on a Node built without full ICU. */
function segmenter(lang: 'zh' | 'ja'): Segmenter | null {
  if (!segmenters.has(lang)) {
    const Ctor = (Intl as { Segmenter?: new (l: string, o: object) => Segmenter }).Segmenter;
    segmenters.set(lang, Ctor ? new Ctor(lang, { granularity: 'word' }) : null);
  }
  return segmenters.get(lang) ?? null;
}

/** Whether the text holds any Chinese or Japanese character. */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

const bigrams = (chars: string[]): string[] => chars.slice(1).map((c, i) => chars[i] + c);

/** The tokens of one run of CJK characters: its words, single characters, and bigrams where segmentation is unsure. */
function runTokens(run: string): string[] {
  const words = [...(segmenter(KANA.test(run) ? 'ja' : 'zh')?.segment(run) ?? [])]
    .filter((s) => s.isWordLike !== false)
    .map((s) => s.segment);
  // Without ICU every character is its own segment, and the bigrams below carry the search.
  const segments = words.length ? words : [...run];
  const out: string[] = [];
  let singles: string[] = [];
  const flush = () => {
    if (singles.length > 1) out.push(...bigrams(singles));
    singles = [];
  };
  for (const word of segments) {
    const chars = [...word];
    out.push(word);
    if (chars.length === 1) {
      singles.push(word);
      continue;
    }
    flush();
    if (chars.length >= 3) out.push(...bigrams(chars));
  }
  flush();
  return out;
}

/**
 * The text as a search index should see it: NFKC-normalised (full-width letters and digits become
 * ASCII), each CJK run replaced by its space-separated tokens, everything else unchanged. Feed it to
 * any whitespace-and-punctuation tokenizer (FTS5 `unicode61`, PostgreSQL's parser, MiniSearch's default).
 *
 * @example
 * analyzeText('用户喜欢使用公制单位'); // '用户 喜欢 使用 公制 单位'
 */
export function analyzeText(text: string): string {
  const normal = text.normalize('NFKC');
  if (!hasCjk(normal)) return normal;
  return normal.replace(CJK_RUN, (run) => ` ${runTokens(run).join(' ')} `);
}

/** The lowercased word tokens of a text after `analyzeText`, in order, duplicates kept. */
export function textTokens(text: string): string[] {
  return (
    analyzeText(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  );
}

/** Whether a token is made of CJK characters (so prefix and fuzzy matching, built for Latin words, do not apply). */
export function isCjkToken(token: string): boolean {
  return hasCjk(token);
}

// Words so common that OR-ing them into a full-text query only slows it down and adds noise.
const STOPWORDS = new Set(
  'a an and are as at be but by did do does for from had has have how i if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with you your'.split(
    ' ',
  ),
);

// The Chinese and Japanese function words a question is full of (particles, pronouns, question words).
const CJK_STOPWORDS = new Set(
  '的 了 是 吗 呢 吧 啊 呀 么 在 和 与 及 或 也 都 就 还 又 把 被 给 让 请 我 你 您 他 她 它 我们 你们 他们 这 那 这个 那个 这些 那些 个 一下 一个 什么 怎么 怎么样 怎样 如何 哪 哪个 哪些 哪里 为什么 多少 几 能 能否 可以 帮 帮我 有 有没有 没有 要 想 需要 告诉 一 下 吗 の は が を に で と も へ や か です ます ください'.split(
    ' ',
  ),
);

/**
 * The search terms of a free-text query: analysed words (CJK segmented), stopwords and duplicates out, at most
 * `limit` (32 by default). Both sides of every BM25 path use it, so a query and an index always agree.
 */
export function queryTerms(text: string, limit = 32): string[] {
  const words = textTokens(text);
  const terms = [...new Set(words)].filter((w) => !STOPWORDS.has(w) && !CJK_STOPWORDS.has(w));
  return (terms.length > 0 ? terms : [...new Set(words)]).slice(0, limit);
}
