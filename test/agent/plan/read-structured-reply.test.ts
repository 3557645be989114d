import { describe, expect, it } from 'vitest';
import { planSchema, replanDecisionSchema } from '../../../src/agent/plan/plan-schema.js';
import { readStructuredReply } from '../../../src/agent/plan/read-structured-reply.js';

const plan = planSchema(3);
const decision = replanDecisionSchema(3);

describe('readStructuredReply', () => {
  it.each([
    ['plain JSON', '{"steps": ["a", "b"]}'],
    ['a json fence with prose around it', 'Sure! Here is the plan:\n```json\n{"steps": ["a", "b"]}\n```\nGood luck.'],
    ['prose around bare JSON', 'Plan: {"steps": ["a", "b"]} (two steps)'],
    ['single quotes and a trailing comma', "{'steps': ['a', 'b',],}"],
    ['a cut-off reply', '{"steps": ["a", "b"'],
  ])('reads %s', (_, text) => {
    expect(readStructuredReply(text, plan)).toEqual({ ok: true, value: { steps: ['a', 'b'] } });
  });

  it('ignores a bracketed aside before the JSON', () => {
    expect(readStructuredReply('[note] then {"steps": ["a"]}', plan)).toEqual({ ok: true, value: { steps: ['a'] } });
  });

  it('says exactly what is wrong', () => {
    expect(readStructuredReply('no JSON at all', plan)).toEqual({
      ok: false,
      reason: 'The reply holds no JSON object.',
    });
    const tooMany = readStructuredReply('{"steps": ["a", "b", "c", "d"]}', plan);
    expect(tooMany.ok === false && tooMany.reason).toMatch(
      /^The JSON does not match the required shape: steps: Too big/,
    );
    const blank = readStructuredReply('{"steps": ["a", "  "]}', plan);
    expect(blank.ok === false && blank.reason).toMatch(/steps\.1: a step must not be empty/);
  });

  it('reads each replanner decision and rejects unknown actions', () => {
    expect(readStructuredReply('{"action":"continue"}', decision)).toEqual({ ok: true, value: { action: 'continue' } });
    expect(readStructuredReply('{"action":"finish","answer":"42"}', decision)).toMatchObject({
      ok: true,
      value: { answer: '42' },
    });
    expect(readStructuredReply('{"action":"replan","steps":["x"]}', decision)).toMatchObject({
      ok: true,
      value: { steps: ['x'] },
    });
    expect(readStructuredReply('{"action":"stop"}', decision).ok).toBe(false);
    expect(readStructuredReply('{"action":"replan","steps":[]}', decision).ok).toBe(false);
  });
});
