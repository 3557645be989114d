export { caseReport, type EvalCaseReport, type EvalReport, type EvalRunReport } from './eval-report.js';
export { EvalCase, EvalCheck, EvalSuite, loadSuite, parseSuite } from './eval-suite.js';
export { type FormatEvalTableOptions, formatEvalTable } from './format-eval-table.js';
export { renderEvalHtml } from './render-eval-html.js';
export {
  type CheckResult,
  type EvalPredicate,
  importPredicate,
  lastNumber,
  type RunChecksOptions,
  runChecks,
  toolsCalled,
} from './run-checks.js';
export { type EvalProgress, formatProgress, type RunSuiteOptions, runSuite } from './run-suite.js';
