import { z } from 'zod';

/**
 * One record of a run's step journal as the run store keeps it (`runStoreJournal`): what a step
 * returned or how it failed, a person's answer, a seed or a time. Only ended steps are kept: a step
 * with no record runs (again) on resume.
 */
export const RunJournalRecord = z.discriminatedUnion('type', [
  z.object({ type: z.literal('step'), ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('step'), ok: z.literal(false), error: z.string() }),
  z.object({ type: z.literal('answer'), value: z.unknown() }),
  z.object({ type: z.literal('seed'), value: z.number() }),
  /** A time read (`now`) or the time a sleep ends at. */
  z.object({ type: z.literal('now'), value: z.number() }),
]);
export type RunJournalRecord = z.infer<typeof RunJournalRecord>;

/**
 * A journal record with its key: `<step>` for a model call, `<step>/<callId>` for a tool call (and
 * `<step>/<callId>:start` for the start of one that is not idempotent), `approval:<step>/<callId>` or
 * `question:<step>/<callId>` for an answer, `seed@<step>#<n>`, `now@<step>#<n>`, `sleep@<step>#<n>`.
 * A key is written once per run; writing it again replaces the record.
 */
export const RunJournalEntry = z.object({ key: z.string(), record: RunJournalRecord });
export type RunJournalEntry = z.infer<typeof RunJournalEntry>;
