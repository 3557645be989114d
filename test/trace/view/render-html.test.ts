import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../src/trace/view/render-html.js';
import { sampleTrace } from '../sample-trace.js';

describe('renderHtml', () => {
  const html = renderHtml(sampleTrace());

  it('is one self-contained page with no external URL', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('has the status, a duration bar per step and an expandable section per step', () => {
    expect(html).toContain('<span id="status" class="status done">done</span>');
    expect(html.match(/class="row" data-step=/g)).toHaveLength(2);
    expect(html).toContain('<details class="step" id="step-1">');
    expect(html).toContain('<details class="step" id="step-2">');
    expect(html).toContain('120 prompt + 30 completion tokens');
  });

  it('puts every model request and reply in its own expandable block', () => {
    expect(html.match(/<details class="call request">/g)).toHaveLength(2);
    expect(html.match(/<details class="call response">/g)).toHaveLength(2);
  });

  it('escapes model text, so a script in a reply stays text', () => {
    const evil = renderHtml(sampleTrace({ modelText: '<script>window.pwned=1</script><img src=x onerror=alert(1)>' }));
    expect(evil).not.toContain('<script>window.pwned');
    expect(evil).not.toContain('<img src=x');
    expect(evil).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
    expect(evil.match(/<script>/g)).toHaveLength(1);
  });
});
