import { isCjkToken, queryTerms, textTokens } from '../../core/index.js';
import { porterStem } from './porter-stem.js';
import { conceptTokens } from './routing-concepts.js';

/**
 * Splits identifiers into words: `getWeather`, `get_weather`, `weather.get`, `weather/get` and
 * `HTTPRequest` all read as words ("get weather", "http request"), so a question for "weather" finds them.
 */
export function splitIdentifiers(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_./\\:-]+/g, ' ');
}

/** Latin words stemmed; CJK words and `#concept` tokens as they are. */
const stem = (token: string) => (isCjkToken(token) ? token : porterStem(token));

/**
 * The single characters of CJK words of two or more, as `'字` terms: a question often holds one character
 * of a word in the description ("诗" and "诗词"), and a character is a weak but real clue in Chinese.
 */
function characters(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) if (token.length > 1 && isCjkToken(token)) for (const c of token) out.push(`'${c}`);
  return out;
}

/**
 * The terms one field of a tool is indexed under: identifiers split, the shared text analysis (CJK
 * segmented), English words stemmed, plus the concepts the text names in either language.
 */
export function indexTerms(text: string): string[] {
  const tokens = textTokens(splitIdentifiers(text));
  return [...tokens.map(stem), ...characters(tokens), ...conceptTokens(text, tokens)];
}

/** A question's words past this many are left out (a step's query holds the question, a thought and an observation). */
const MAX_QUESTION_TERMS = 200;

/** The terms of a question: the same analysis without stopwords or duplicates, plus its concepts. */
export function questionTerms(text: string): string[] {
  const tokens = queryTerms(splitIdentifiers(text), MAX_QUESTION_TERMS);
  return [...new Set([...tokens.map(stem), ...characters(tokens), ...conceptTokens(text, tokens)])];
}
