/** The report's inline stylesheet: no external fonts or URLs, so the page works offline. */
export const REPORT_CSS = `
:root { --bg:#fff; --fg:#1d2330; --dim:#6b7280; --line:#e5e7eb; --ok:#15803d; --bad:#b91c1c; --model:#7c3aed; --tool:#d97706; --step:#2563eb; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 24px 0 8px; }
code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin: 4px 0; max-height: 480px; overflow: auto; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; } dl.meta dt { color: var(--dim); } dl.meta dd { margin: 0; }
.status { display: inline-block; padding: 1px 10px; border-radius: 999px; color: #fff; font-weight: 600; background: var(--bad); }
.status.done { background: var(--ok); }
.timeline { border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
.row { display: grid; grid-template-columns: 90px 1fr 120px; align-items: center; gap: 8px; height: 22px; cursor: pointer; }
.row .label { color: var(--dim); } .row .info { color: var(--dim); font-size: 12px; text-align: right; }
.track { position: relative; height: 14px; background: #f3f4f6; border-radius: 3px; }
.bar { position: absolute; top: 0; height: 14px; min-width: 2px; border-radius: 3px; opacity: .85; }
.bar.step { background: var(--step); opacity: .25; } .bar.model { background: var(--model); top: 2px; height: 10px; } .bar.tool { background: var(--tool); top: 2px; height: 10px; } .bar.tool.failed { background: var(--bad); }
.legend span { display: inline-block; margin-right: 12px; color: var(--dim); } .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: middle; }
details.step { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 0 12px; }
details.step > summary { cursor: pointer; padding: 8px 0; font-weight: 600; }
details.step > summary .info { font-weight: 400; color: var(--dim); margin-left: 8px; }
details.call { margin: 6px 0 6px 8px; } details.call > summary { cursor: pointer; color: var(--model); }
.kind { font-weight: 600; } .thought { color: #1e40af; } .tool-name { color: var(--tool); font-weight: 600; }
.error, .invalid { color: var(--bad); } .warning { color: #a16207; } .cached { color: var(--ok); font-size: 12px; }
table { border-collapse: collapse; } td, th { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
.status.suspended { background: #ca8a04; } .status.running { background: var(--dim); }
.timeline.workflow .row { grid-template-columns: 160px 1fr 140px; } .row .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.timeline.workflow .bar.step { opacity: .45; background: var(--ok); } .timeline.workflow .bar.step.failed { background: var(--bad); }
.timeline.workflow .bar.step.suspended { background: #ca8a04; } .timeline.workflow .bar.step.running { background: var(--dim); }
.mark { position: absolute; top: -2px; height: 18px; border-left: 2px dashed var(--dim); }
details.wstep > summary .status { font-size: 12px; padding: 0 8px; margin-left: 6px; } .payload { border-color: #ca8a04; }
button { font: inherit; padding: 2px 10px; margin-right: 6px; border: 1px solid var(--line); border-radius: 4px; background: #f9fafb; cursor: pointer; }
`;

/** The report's inline script: expand/collapse all, and a timeline row click opens its step. */
export const REPORT_JS = `
document.querySelectorAll('[data-expand]').forEach(function (button) {
  button.addEventListener('click', function () {
    var open = button.getAttribute('data-expand') === 'all';
    document.querySelectorAll('details').forEach(function (d) { d.open = open; });
  });
});
document.querySelectorAll('.row[data-step]').forEach(function (row) {
  row.addEventListener('click', function () {
    var step = document.getElementById('step-' + row.getAttribute('data-step'));
    if (!step) return;
    step.open = true;
    step.scrollIntoView({ block: 'start' });
  });
});
`;

/** The buttons that open and close every section at once (wired by `REPORT_JS`). */
export const EXPAND_BUTTONS =
  '<p><button type="button" data-expand="all">Expand all</button><button type="button" data-expand="none">Collapse all</button></p>';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}
