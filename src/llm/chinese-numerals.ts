const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const SECTIONS: Record<string, number> = { 万: 10_000, 亿: 100_000_000 };

const NUMERAL = /[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?/g;

/** `一百二十三` → 123, `三点五` → 3.5, `二零二四` → 2024 (digits with no units are read in place). */
export function readChineseNumber(text: string): number {
  const [whole, fraction] = text.split('点');
  let value: number;
  if (!/[十百千万亿]/.test(whole)) {
    value = Number([...whole].map((c) => DIGITS[c]).join(''));
  } else {
    let total = 0;
    let section = 0;
    let digit = 0;
    for (const c of whole) {
      if (c in DIGITS) digit = DIGITS[c];
      else if (c in UNITS) {
        // `十五` is 15: a unit with no digit before it counts once.
        section += (digit || 1) * UNITS[c];
        digit = 0;
      } else {
        total += (section + digit) * SECTIONS[c];
        section = 0;
        digit = 0;
      }
    }
    value = total + section + digit;
  }
  if (!fraction) return value;
  return Number(`${value}.${[...fraction].map((c) => DIGITS[c]).join('')}`);
}

/**
 * Replaces the Chinese numerals in a text by Arabic ones, so `三加五` reads as `3加5`. Used by the demo
 * model; words such as `一下` become `1下`, which is harmless because only runs of arithmetic count.
 */
export function arabicNumerals(text: string): string {
  return text.replace(NUMERAL, (match) => String(readChineseNumber(match)));
}
