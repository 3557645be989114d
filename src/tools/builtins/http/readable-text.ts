import { requireOptional } from '../../../core/index.js';

/** Turns an HTML page into readable plain text: scripts, styles, images and link targets dropped. */
export function htmlToReadableText(html: string): string {
  // html-to-text (an optional peer, checked when the tool is made) loads with the first HTML page, not at
  // import: it and its parser take ~100 ms to load.
  const { convert } = requireOptional<typeof import('html-to-text')>('html', 'html-to-text');
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'nav', format: 'skip' },
    ],
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
