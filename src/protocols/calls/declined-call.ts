/**
 * A call in a reply that says the tools cannot do what was asked ("The function is not suitable…
 * However, if you still want to use it, the call would look like this: `f(…)`", or a call followed by
 * "Note: the provided function does not directly answer…") is an example for the person, not a call
 * the model makes. Real replies to questions no tool fits do this often; running the example would
 * run a tool the model itself advised against.
 */

// Each phrase says the offered tools do not fit, or hands the call to the person ("if you still want…").
// A model saying what it cannot do itself ("I can't check live weather, so I'll call…") declines nothing.
const FUNCTION = String.raw`\b(?:function|tool|api)s?\b`;
const NOT_FIT =
  '(?:suitable|applicable|relevant|appropriate|designed|meant|intended|related|directly|able|provide|answer|address|support|match|fit|cover|help|calculate|give|return)';
const DECLINES = new RegExp(
  [
    String.raw`${FUNCTION}[^.\n]{0,60}?\b(?:is|are|does|do|was|were)\s+not\b[^.\n]{0,30}?\b${NOT_FIT}`,
    String.raw`${FUNCTION}[^.\n]{0,60}?\b(?:isn't|aren't|doesn't|don't|cannot|can't|can\s+not)\b[^.\n]{0,30}?\b${NOT_FIT}`,
    String.raw`\bno\s+(?:suitable|relevant|appropriate|applicable|matching)\s+${FUNCTION}`,
    String.raw`\bnone\s+of\s+the\s+(?:provided\s+|given\s+|available\s+|listed\s+)?${FUNCTION}`,
    String.raw`\b(?:cannot|can't|can\s+not|unable\s+to)\b[^.\n]{0,60}?\b(?:with|using|by)\s+(?:the|these|this|any\s+of\s+the)\s+(?:provided\s+|given\s+|available\s+)?${FUNCTION}`,
    String.raw`\bif\s+you\s+(?:still\s+(?:want|wish|would\s+like|need)|insist)\b`,
    String.raw`\b(?:call|function\s+call)\s+would\s+look\s+like\b`,
    String.raw`\bhypothetical(?:ly)?\b`,
    '(?:函数|工具)[^。\n]{0,20}(?:不适合|不适用|无法|不能|并不)',
    '没有(?:合适|相关|适用)的(?:函数|工具)',
    '如果你?(?:仍然|还是)(?:想|希望|要)',
  ].join('|'),
  'i',
);

/** How much of a reply's start and end is looked at: where models say what they will and won't do. */
const EDGE = 3_000;

/**
 * True when a reply declines the task or hands its call to the person.
 *
 * @example
 * declinesCall("The provided function is not suitable for this. If you still want to use it:"); // true
 * declinesCall('To find the area, I will call the tool.'); // false
 */
export function declinesCall(reply: string | undefined): boolean {
  if (!reply) return false;
  if (reply.length <= 2 * EDGE) return DECLINES.test(reply);
  return DECLINES.test(reply.slice(0, EDGE)) || DECLINES.test(reply.slice(-EDGE));
}
