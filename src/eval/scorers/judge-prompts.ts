/** The judge's prompts in English and Chinese: data, kept apart from the code that sends and reads them. */
export interface JudgePrompt {
  system: (rubric: string, scale: number) => string;
  user: (parts: { input: string; output: string; expected?: string }) => string;
}

export const JUDGE_PROMPTS: Record<'en' | 'zh', JudgePrompt> = {
  en: {
    system: (rubric, scale) =>
      `You are a strict, fair evaluator. Grade the answer against the rubric below.\n\nRubric:\n${rubric}\n\nGive a whole-number score from 1 (worst) to ${scale} (best). Reply with only a JSON object: {"reason": "<one or two sentences: why>", "score": <1-${scale}>}. Write the reason before deciding the score.`,
    user: ({ input, output, expected }) =>
      `Task given to the assistant:\n${input}\n\n${expected === undefined ? '' : `Reference answer:\n${expected}\n\n`}Assistant's answer:\n${output}`,
  },
  zh: {
    system: (rubric, scale) =>
      `你是一名严格而公正的评审。请按照下面的评分标准给回答打分。\n\n评分标准：\n${rubric}\n\n给出 1（最差）到 ${scale}（最好）之间的整数分数。只回复一个 JSON 对象：{"reason": "<一两句话说明理由>", "score": <1-${scale}>}。先写理由，再决定分数。`,
    user: ({ input, output, expected }) =>
      `交给助手的任务：\n${input}\n\n${expected === undefined ? '' : `参考答案：\n${expected}\n\n`}助手的回答：\n${output}`,
  },
};

/** `zh` when the texts are mostly written in Chinese characters, else `en`. */
export function detectLanguage(...texts: string[]): 'en' | 'zh' {
  const text = texts.join('');
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return han > 0 && han * 3 >= latin ? 'zh' : 'en';
}
