// Words so common that OR-ing them into a full-text query only slows it down and adds noise.
const STOPWORDS = new Set(
  'a an and are as at be but by did do does for from had has have how i if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with you your'.split(
    ' ',
  ),
);

/** The search terms of a free-text query: lowercased words and numbers, stopwords and duplicates out, at most 32. */
export function queryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const terms = [...new Set(words)].filter((w) => !STOPWORDS.has(w));
  return (terms.length > 0 ? terms : [...new Set(words)]).slice(0, 32);
}
