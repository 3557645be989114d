/** The runs room's Node face: online scoring, which runs the eval library's scorers (some read files). */
export * from './score-runs.js';
