import type { PendingQuestion } from './run-record.js';

export type Answer = NonNullable<PendingQuestion['answer']>;

/** The questions one run is waiting on, and the way answers reach them. */
export interface QuestionBox {
  /** Pauses the caller until a person answers (or the signal aborts: then it is denied). */
  ask(question: Omit<PendingQuestion, 'id' | 'answer'>): Promise<Answer>;
  /** Answers a pending question (the only one when `id` is omitted); false when there is none to answer. */
  answer(answer: Answer, id?: string): boolean;
  /** Picks up answers written into the stored questions by another process. */
  sync(stored: readonly PendingQuestion[] | undefined): void;
  pending(): PendingQuestion[];
}

/**
 * Holds a run's open questions. `onChange` persists the list, so a client (or an API server in
 * another process) sees the run `waiting` and what it asks.
 */
export function createQuestionBox(options: {
  signal: AbortSignal;
  onChange: (questions: PendingQuestion[]) => void;
}): QuestionBox {
  const open = new Map<string, { question: PendingQuestion; resolve: (answer: Answer) => void }>();
  let counter = 0;
  const list = () => [...open.values()].map((entry) => entry.question);

  function answer(value: Answer, id?: string): boolean {
    const key = id ?? (open.size === 1 ? [...open.keys()][0] : undefined);
    const entry = key === undefined ? undefined : open.get(key);
    if (!entry || key === undefined) return false;
    open.delete(key);
    entry.resolve(value);
    options.onChange(list());
    return true;
  }

  options.signal.addEventListener('abort', () => {
    for (const id of [...open.keys()]) answer({ approved: false }, id);
  });

  return {
    ask(question) {
      if (options.signal.aborted) return Promise.resolve({ approved: false });
      counter += 1;
      const full: PendingQuestion = { ...question, id: `q${counter}` };
      return new Promise<Answer>((resolve) => {
        open.set(full.id, { question: full, resolve });
        options.onChange(list());
      });
    },
    answer,
    sync(stored) {
      for (const question of stored ?? []) {
        if (question.answer && open.has(question.id)) answer(question.answer, question.id);
      }
    },
    pending: list,
  };
}
