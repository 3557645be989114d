/**
 * The studio's HTML shell. Everything else is drawn by the bundled script; styles are inline so the
 * page needs no other request, no CDN and no web font.
 */
export function studioPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>thinkflow studio</title>
<style>${STYLES}</style></head>
<body><div id="app">Loading…</div><script type="module" src="/studio/app.js"></script></body></html>`;
}

/** Shown instead of the page when the bundle was not built. */
export function missingBundlePage(): string {
  return '<!doctype html><meta charset="utf-8"><title>thinkflow studio</title><p>The studio bundle is missing: run <code>npm run build</code> in the thinkflow package.</p>';
}

// The step tree is a virtual list (step-list.ts): `.vrow` contains its step's margins so a row's
// measured height is all the room it takes, and scroll anchoring is off because the list itself keeps
// the rows in place when it swaps them.
const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f5f6f8}
header{display:flex;gap:16px;align-items:center;padding:8px 16px;background:#1d2330;color:#fff}
header h1{font-size:16px;margin:0 12px 0 0}
header button{background:none;border:0;color:#c9d1e0;font:inherit;cursor:pointer;padding:4px 8px;border-radius:4px}
header button.active{background:#3a4356;color:#fff}
main{padding:16px;max-width:1400px;margin:0 auto}
.split{display:grid;grid-template-columns:minmax(320px,1fr) minmax(360px,1.3fr);gap:16px}
.panel{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px}
.panel h2{font-size:14px;margin:0 0 8px;color:#4a5468}
.msg{padding:8px 10px;border-radius:8px;margin:6px 0;white-space:pre-wrap}
.msg.user{background:#e6efff;margin-left:40px}
.msg.assistant{background:#f0f2f5;margin-right:40px}
form.row,.row{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
input,select,textarea{font:inherit;padding:6px 8px;border:1px solid #c5ccd8;border-radius:6px}
input.grow,textarea.grow{flex:1}
button.btn{font:inherit;padding:6px 12px;border:1px solid #3563e9;background:#3563e9;color:#fff;border-radius:6px;cursor:pointer}
button.btn.secondary{background:#fff;color:#3563e9}
button.btn.danger{background:#c93a3a;border-color:#c93a3a}
.tree{font-size:13px;overflow:auto;max-height:70vh}
.node{border-left:3px solid #c5ccd8;padding:4px 8px;margin:4px 0;background:#fafbfc}
.node .label{font-weight:600}
.node.thought{border-color:#8a6df0}.node.tool{border-color:#e59a1a}.node.observation{border-color:#2d9d6a}
.node.final{border-color:#3563e9;background:#eef3ff}.node.warning{border-color:#d4a000;background:#fff8e1}
.node.error{border-color:#c93a3a;background:#fdeeee}.node.approval{border-color:#c93a3a}
.step{margin:6px 0;padding:4px 6px;border:1px solid #e3e6ec;border-radius:6px;background:#fff}
.step>.head{display:flex;gap:10px;color:#4a5468;font-size:12px}
.branch{margin-left:18px;border-left:2px dashed #9aa5b8;padding-left:8px}
pre{margin:4px 0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.meta{color:#6b7487;font-size:12px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e3e6ec;font-size:13px}
tr.run{cursor:pointer}tr.run:hover{background:#f0f4ff}
.status{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#e3e6ec}
.status.done{background:#d8f3e5}.status.failed{background:#fbdada}.status.running{background:#dde7ff}
.status.waiting{background:#fff0c2}.status.aborted{background:#eee}
.drop{border:2px dashed #9aa5b8;border-radius:8px;padding:24px;text-align:center;color:#4a5468;margin-bottom:12px}
.drop.over{background:#eef3ff}
.ask{background:#fff8e1;border:1px solid #e5c55a;border-radius:8px;padding:10px;margin:8px 0}
.error-text{color:#c93a3a}
.vlist{position:relative;overflow:auto;max-height:70vh;overflow-anchor:none}
.vrow{display:flow-root}
.vrow.marked>.step{outline:2px solid #c93a3a}
.step .cost{color:#2d6a4f}
tr.case.fail td:first-child{border-left:3px solid #c93a3a}tr.case.pass td:first-child{border-left:3px solid #2d9d6a}
.eval-run{font:inherit;font-size:12px;padding:2px 8px;border-radius:10px;border:1px solid #c5ccd8;background:#fff;cursor:pointer;text-decoration:none;color:inherit}
.eval-run.pass{background:#d8f3e5}.eval-run.fail{background:#fbdada}
ul.checks{margin:4px 0 0;padding-left:18px;color:#c93a3a;font-size:12px}
.replay{margin:8px 0}
.status.suspended{background:#fff0c2}.status.pending{background:#f0f2f5;color:#6b7487}.status.cancelled{background:#eee}
.wf-layout{display:grid;grid-template-columns:260px 1fr;gap:16px}
.wf-run{display:grid;grid-template-columns:minmax(300px,1fr) minmax(300px,1fr);gap:16px;align-items:start}
form.payload{display:flex;flex-direction:column;gap:6px;margin:6px 0}
form.payload>.btn{align-self:flex-start}
label.field{display:flex;flex-direction:column;gap:2px;font-size:13px}
label.field.check{flex-direction:row;align-items:center;gap:8px}
fieldset.fields{border:1px solid #dde1e8;border-radius:6px;display:flex;flex-direction:column;gap:6px}
.wf-runs{padding-left:18px;font-size:13px}
.wf-graph{display:flex;flex-direction:column;align-items:center;gap:18px;margin:12px 0}
.wf-node{position:relative;display:flex;flex-direction:column;align-items:center}
.wf-node+.wf-node::before{content:"";position:absolute;top:-18px;left:50%;height:18px;border-left:2px solid #9aa5b8}
.wf-row{display:flex;gap:10px;flex-wrap:wrap;justify-content:center}
.wf-kind{font-size:11px;color:#6b7487;text-transform:uppercase}
.wf-box{border:2px solid #c5ccd8;border-radius:8px;padding:6px 10px;background:#fff;cursor:pointer;min-width:140px}
.wf-box.selected{outline:2px solid #3563e9}
.wf-mark{border-style:dashed;cursor:default}
.wf-nested{background:#fafbfc}
.wf-head{display:flex;gap:8px;align-items:center;justify-content:space-between}
.wf-box[data-status=running]{border-color:#3563e9}.wf-box[data-status=done]{border-color:#2d9d6a}
.wf-box[data-status=suspended]{border-color:#d4a000}.wf-box[data-status=failed]{border-color:#c93a3a}
`;
