import { escapeHtml as esc } from '../../trace/index.js';

/**
 * A self-contained eval page (no external URL; `images` also allows `data:` images): the head with its
 * styles, the heading `thinkflow eval: NAME`, then `body` as given.
 */
export function evalHtmlPage(page: { name: string; css: string; body: string; images?: boolean }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'${page.images ? '; img-src data:' : ''}">
<title>${esc(`thinkflow eval ${page.name}`)}</title><style>${page.css}</style></head>
<body>
<h1>${esc(`thinkflow eval: ${page.name}`)}</h1>
${page.body}
</body></html>
`;
}
