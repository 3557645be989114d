import { describe, expect, it } from 'vitest';
import { renderHtml, renderTimeline } from '../../../src/trace/index.js';
import { workflowTrace } from '../workflow-trace.js';

describe('renderTimeline for a workflow trace', () => {
  it('shows the header, each step by path with status and output, nested steps indented, the totals', async () => {
    const { events, runId } = await workflowTrace();
    const text = renderTimeline(events);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^workflow triage {2}run ${runId} {2}definition [0-9a-f]+$`));
    expect(text).toContain('input The site is down');
    expect(text).toContain('passes 2 (1 resumed)');
    const starts = ['0.classify', '1.lookup', '1.draft agent', '2.review', '3.notify workflow'].map((label) =>
      lines.findIndex((l) => l.startsWith(`${label}  `)),
    );
    expect(starts.every((i) => i > 0)).toBe(true);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(lines.find((l) => l.startsWith('2.review'))).toMatch(/done \(resumed\) {2}\+\d.* · pass 2$/);
    expect(text).toContain('  ⏸ payload {"draft":"We are on it: 42 engineers.","page":"runbook/outage"}');
    expect(text).toContain('  ← {"page":"runbook/outage"}');
    expect(lines.some((l) => /^ {2}1\.send\[1\] {2}done/.test(l))).toBe(true);
    expect(text).toContain('    ← sent to chat');
    expect(text).toMatch(
      /\ndone in \d+.*ms · 8 steps · 2 passes · 2 LLM calls · 100 prompt \+ 20 completion tokens.*\noutput \["sent to email","sent to chat","sent to pager"\]\n$/,
    );
  });

  it('folds an agent step’s own steps, model calls and tool calls under it', async () => {
    const { events, runId } = await workflowTrace();
    const lines = renderTimeline(events).split('\n');
    const at = lines.findIndex((l) => l.startsWith('1.draft agent'));
    const block = lines.slice(at, lines.indexOf('', at)).join('\n');
    expect(block).toContain(`  agent ${runId}:1.draft model scripted  2 LLM calls · 100→20 tokens · done`);
    expect(block).toMatch(/\n {4}step \d+ {2}.* · 48 tokens\n {6}model .*40→8 tokens/);
    expect(block).toContain('      → calculator {"expression":"6*7"}');
    expect(block).toContain('      final We are on it: 42 engineers.');
    expect(block.split('\n').at(-1)).toBe('  ← We are on it: 42 engineers.');
  });

  it('a suspended pass ends with what it waits for; a failed one with the error, cut like the rest', async () => {
    const { firstPass } = await workflowTrace();
    const waiting = renderTimeline(firstPass);
    expect(waiting).toMatch(/2\.review {2}suspended/);
    expect(waiting).toMatch(/\nsuspended in .* · 4 steps · 2 LLM calls/);
    expect(waiting).toContain('waiting for step "review" (2.review)');
    const { events } = await workflowTrace({ failChannel: 'chat' });
    const failed = renderTimeline(events, { maxText: 20 });
    expect(failed).toContain('    ✗ chat gateway refuse…');
    expect(failed).toMatch(/\nfailed in .*\nerror step_failed: chat gateway refuse…\n$/);
  });

  it('a trace without workflow_end says the run did not finish', async () => {
    const { events } = await workflowTrace();
    const cut = events.slice(
      0,
      events.findIndex((e) => e.type === 'step_end' && e.path === '1.lookup'),
    );
    const text = renderTimeline(cut);
    expect(text).toMatch(/1\.lookup {2}running/);
    expect(text).toContain('no workflow_end: the run did not finish (crashed or still running)');
  });
});

describe('renderHtml for a workflow trace', () => {
  it('has the status, one timeline row and one section per step, nested ones indented', async () => {
    const { events, runId } = await workflowTrace();
    const html = renderHtml(events);
    expect(html).toContain(`<title>thinkflow trace triage ${runId}</title>`);
    expect(html).toContain('<span id="status" class="status done">done</span>');
    expect(html.match(/class="row" data-step="w\d+"/g)).toHaveLength(9);
    expect(html.match(/<details class="step wstep" id="step-w\d+"/g)).toHaveLength(9);
    expect(html).toContain('data-path="3.notify/1.send[2]" style="margin-left:16px"');
    expect(html).toContain('<dt>passes</dt><dd>2 (1 resumed)</dd>');
    expect(html).toContain('<dt>tokens</dt><dd>100 prompt + 20 completion</dd>');
    expect(html).toContain('<pre id="output">[\n  &quot;sent to email&quot;');
  });

  it('cuts the wait between passes out of the timeline and marks where the resume began', async () => {
    const { events } = await workflowTrace();
    const late = events.map((e, i) =>
      i >= events.findIndex((x) => x.type === 'workflow_start' && x.resumed) ? { ...e, ts: e.ts + 86_400_000 } : e,
    );
    const html = renderHtml(late);
    expect(html.match(/<div class="mark" style="left:[\d.]+%"><\/div>/g)?.length).toBe(9);
    const left = (path: string) =>
      Number(
        new RegExp(
          `data-path="${path.replace(/[[\]]/g, '\\$&')}"><span[^>]*>[^<]*</span><div class="track">(?:<div class="mark"[^>]*></div>)?<div class="bar step [a-z]+" title="[^"]*" style="left:([\\d.]+)%`,
        ).exec(html)?.[1],
      );
    // A day of waiting would squeeze the first pass to nothing; without it, the review resumes mid-track.
    expect(left('2.review')).toBeGreaterThan(10);
    expect(left('2.review')).toBeLessThan(90);
  });

  it('puts an agent step’s model and tool bars on its row and its steps inside its section', async () => {
    const { events } = await workflowTrace();
    const html = renderHtml(events);
    const row = /<div class="row" data-step="w(\d+)" data-path="1\.draft">.*?<\/div><span class="info">/.exec(html);
    expect(row?.[0].match(/class="bar model"/g)).toHaveLength(2);
    expect(row?.[0].match(/class="bar tool"/g)).toHaveLength(1);
    const n = row?.[1];
    expect(html).toMatch(new RegExp(`<details class="step" id="step-w${n}-\\d+">`));
    expect(html).toContain('<span class="kind">Agent run</span>');
  });

  it('shows a suspend payload and a failed step’s error, escaped', async () => {
    const { firstPass } = await workflowTrace({ replyText: '<script>window.pwned=1</script>' });
    const html = renderHtml(firstPass);
    expect(html).toContain('<span id="status" class="status suspended">suspended</span>');
    expect(html).toContain(
      '<pre class="payload">{\n  &quot;draft&quot;: &quot;&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;',
    );
    expect(html.match(/<script>/g)).toHaveLength(1);
    const failed = renderHtml((await workflowTrace({ failChannel: 'chat' })).events);
    expect(failed).toContain('<pre class="error">chat gateway refused the message</pre>');
    expect(failed).toContain('<span id="status" class="status failed">failed</span>');
  });
});
