export { caseReport, type EvalCaseReport, type EvalReport, type EvalRunReport } from './eval-report.js';
export { EvalCase, EvalCheck, EvalSuite, loadSuite, parseSuite } from './eval-suite.js';
export {
  type CompareThresholds,
  type Comparison,
  compareExperiments,
  type ExperimentTrials,
  type ScorerComparison,
} from './experiment/compare-experiments.js';
export {
  type ExperimentJson,
  loadExperiment,
  readExperimentJson,
  writeExperimentJson,
} from './experiment/experiment-json.js';
export type {
  Experiment,
  ExperimentMeta,
  ExperimentResult,
  ExperimentStore,
  ExperimentSummary,
  ScorerSummary,
  TrialRecord,
} from './experiment/experiment-types.js';
export { memoryExperimentStore } from './experiment/memory-experiment-store.js';
export {
  PostgresExperimentStore,
  type PostgresExperimentStoreOptions,
} from './experiment/postgres-experiment-store.js';
export {
  type DataRow,
  type ExperimentProgress,
  type RunExperimentOptions,
  runExperiment,
} from './experiment/run-experiment.js';
export { type AgentLike, runTrial, type Task, type TaskContext, type TaskFunction } from './experiment/run-trial.js';
export { SqliteExperimentStore } from './experiment/sqlite-experiment-store.js';
export {
  bootstrapMean,
  type Estimate,
  pairedBootstrap,
  passAtK,
  passHatK,
  seededRandom,
  signTest,
} from './experiment/stats.js';
export { summarizeTrials } from './experiment/summarize-experiment.js';
export { type FetchDatasetOptions, fetchDataset } from './fetch-dataset.js';
export { type FormatEvalTableOptions, formatEvalTable } from './format-eval-table.js';
export { DatasetRow, type EvalItem, loadDataset, parseDataset } from './load-dataset.js';
export { renderEvalHtml } from './render-eval-html.js';
export { alignColumns, columnsOf } from './report/align-columns.js';
export { formatComparison, formatExperiment } from './report/format-experiment.js';
export { caseDiffSvg, histogramSvg, renderExperimentHtml } from './report/render-experiment-html.js';
export { renderJunit } from './report/render-junit.js';
export { type RescoreItem, type RescoreResult, rescore, runFromTrace, traceItems } from './rescore.js';
export {
  type CheckResult,
  type EvalPredicate,
  importPredicate,
  lastNumber,
  type RunChecksOptions,
  runChecks,
  toolsCalled,
} from './run-checks.js';
export { type EvalProgress, formatProgress, type RunSuiteOptions, runSuite, suiteChecksScorer } from './run-suite.js';
export {
  type ActualCall,
  type AllowedValues,
  type CallCheck,
  checkToolCall,
  checkToolCalls,
  type ExpectedCall,
  type ParamSchema,
  standardizeString,
  type ToolSchema,
} from './scorers/check-tool-call.js';
export { type EmbeddingSimilarityOptions, embeddingSimilarity } from './scorers/embedding-similarity.js';
export { type JsonMatchOptions, jsonMatch, type SafeParser } from './scorers/json-match.js';
export { type LlmJudgeOptions, llmJudge, readVerdict } from './scorers/llm-judge.js';
export {
  applyScorer,
  applyScorers,
  createScorer,
  type RunLike,
  type Score,
  type ScoreResult,
  type Scorer,
  type ScorerInput,
} from './scorers/scorer.js';
export { scorerFromSpec } from './scorers/scorer-spec.js';
export {
  type BudgetLimits,
  budget,
  contains,
  exact,
  type NumericOptions,
  noError,
  numeric,
  regex,
  type TextOptions,
} from './scorers/text-scorers.js';
export {
  type ExpectedCallInput,
  readExpectedCalls,
  type ToolCallsOptions,
  toExpectedCall,
  toolCalls,
} from './scorers/tool-calls.js';
export { type ExpectedStep, type TrajectoryMode, trajectory } from './scorers/trajectory.js';
