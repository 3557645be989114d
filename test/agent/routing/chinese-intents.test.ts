import { describe, expect, it } from 'vitest';
import { createToolRouter } from '../../../src/entries/tools.js';
import { loadChineseIntents } from '../../fixtures/routing/public-sets.js';

/**
 * Chinese questions in the everyday words of a domain its tool's description does not use: a disease
 * or symptom for health, an index for stocks, a broadcast for the TV guide, a number for contacts, a
 * coach for coach tickets, a player app for apps. None of these questions is in the intent set.
 */
const { tools } = loadChineseIntents('zh');
const { tools: englishTools } = loadChineseIntents('en');

const QUESTIONS: [string, string][] = [
  ['高血压平时要注意什么', 'health_advice'],
  ['嗓子疼还咳嗽', 'health_advice'],
  ['创业板指数今天怎么样', 'stock_quote'],
  ['今晚湖南卫视几点播出', 'tv_guide'],
  ['李明的联系方式', 'contacts'],
  ['明天去苏州的大巴还有吗', 'search_coach_tickets'],
  ['帮我下载一个浏览器', 'launch_app'],
  ['最近有什么好看的电视剧', 'video_search'],
];

describe('routing Chinese intents by the words of their domain', () => {
  it.each(QUESTIONS)('%s → %s (tools described in Chinese)', async (question, tool) => {
    const router = createToolRouter({ topK: 3 });
    expect((await router.route(question, tools)).map((t) => t.name)).toContain(tool);
  });

  it.each(QUESTIONS)('%s → %s (tools described in English)', async (question, tool) => {
    const router = createToolRouter({ topK: 3 });
    expect((await router.route(question, englishTools)).map((t) => t.name)).toContain(tool);
  });
});
