/**
 * A call in a reply that says the tools cannot do what was asked ("The function is not suitable…
 * However, if you still want to use it, the call would look like this: `f(…)`", or a call followed by
 * "Note: the provided function does not directly answer…") is an example for the person, not a call
 * the model makes. Real replies to questions no tool fits do this often; running the example would
 * run a tool the model itself advised against.
 */

// Each phrase says the tools do not fit, or hands the call to the person ("you could call…").
const DECLINES = new RegExp(
  [
    String.raw`\b(?:is|are)\s+not\s+(?:directly\s+)?(?:suitable|applicable|relevant|appropriate|designed|meant|intended|related)\b`,
    String.raw`\b(?:isn't|aren't)\s+(?:directly\s+)?(?:suitable|applicable|relevant|appropriate|designed|meant|intended)\b`,
    String.raw`\b(?:cannot|can't|can\s+not|unable\s+to)\s+(?:be\s+)?(?:directly\s+)?(?:provide|answer|use|call|help|determine|fulfil|fulfill|perform|make|give|complete|find|calculate|used|answered)\b`,
    String.raw`\bno\s+(?:suitable|relevant|appropriate|applicable)\s+(?:function|tool)s?\b`,
    String.raw`\bnone\s+of\s+the\s+(?:provided\s+|given\s+|available\s+)?(?:functions|tools)\b`,
    String.raw`\b(?:does|do)\s+not\s+(?:directly\s+)?(?:provide|answer|address|support|match|apply|fit|cover)\b`,
    String.raw`\bif\s+you\s+(?:still\s+)?(?:want|wish|would\s+like|insist)\b`,
    String.raw`\b(?:call|function\s+call)\s+would\s+look\s+like\b`,
    String.raw`\bhypothetical(?:ly)?\b`,
    '(?:无法|不能|没有)(?:直接)?(?:回答|提供|使用|调用|完成|满足)',
    '(?:不适合|不适用|并不适用|不相关)',
    '如果你?(?:仍然|还是)?(?:想|希望|需要)',
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
