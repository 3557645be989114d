/** The runs room's Node face: online scoring, which runs the eval library's scorers (some read files). */
export {
  type AgentScoring,
  type OnlineScoringConfig,
  type ScoredRun,
  type ScoredRuns,
  type ScoreRunsContext,
  scoreRuns,
} from './score-runs.js';
