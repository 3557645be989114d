/**
 * `thinkflow/eval`: evaluation suites (YAML or JSON cases with checks), run against a model and
 * reported as a table or an HTML page.
 */
export {
  type CheckResult,
  EvalCase,
  type EvalCaseReport,
  EvalCheck,
  type EvalPredicate,
  type EvalProgress,
  type EvalReport,
  type EvalRunReport,
  EvalSuite,
  formatEvalTable,
  loadSuite,
  parseSuite,
  type RunSuiteOptions,
  renderEvalHtml,
  runChecks,
  runSuite,
} from '../eval/index.js';
