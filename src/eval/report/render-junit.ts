import type { ExperimentMeta, TrialRecord } from '../experiment/experiment-types.js';

const xml = (text: string) =>
  text
    .replace(
      /[<>&"']/g,
      (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch] as string,
    )
    // XML 1.0 forbids most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * An experiment as JUnit XML for CI test reports: one `<testsuite>`, one `<testcase>` per case and
 * trial, a `<failure>` naming each scorer that failed, an `<error>` when the task threw.
 */
export async function renderJunit(
  meta: ExperimentMeta,
  trials: AsyncIterable<TrialRecord> | Iterable<TrialRecord>,
): Promise<string> {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let seconds = 0;
  for await (const t of trials) {
    const name = meta.trials > 1 ? `${t.caseId} #${t.trial + 1}` : t.caseId;
    const time = (t.latencyMs / 1000).toFixed(3);
    seconds += t.latencyMs / 1000;
    let body = '';
    if (t.status === 'error') {
      errors++;
      body = `<error message="${xml(t.error ?? 'the task failed')}"/>`;
    } else if (!t.pass) {
      failures++;
      const failed = t.scores.filter((s) => !s.pass);
      const message = failed.map((s) => `${s.name}: ${s.error ?? s.reason ?? `score ${s.score}`}`).join('; ');
      body = `<failure message="${xml(message)}">${xml(`output: ${t.output}`)}</failure>`;
    }
    cases.push(`    <testcase classname="${xml(meta.name)}" name="${xml(name)}" time="${time}">${body}</testcase>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="thinkflow eval">
  <testsuite name="${xml(meta.name)}" id="${xml(meta.id)}" tests="${cases.length}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(3)}" timestamp="${xml(meta.startedAt)}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
