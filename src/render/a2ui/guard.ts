/**
 * What a turn refuses of an agent's A2UI messages before any renderer sees them (surfaces are untrusted
 * input, the renderers' READMEs warn): a URL a browser would run, a value nested too deep, a message too
 * large. Each message is checked alone: one refused message does not stop the others.
 */

/** How deep a message's JSON may nest. */
export const MAX_A2UI_DEPTH = 32;

/** The characters of one message's strings and keys, and its values, at most (a data model bomb is refused whole). */
export const MAX_A2UI_MESSAGE_CHARS = 1_000_000;

/** URL schemes a link, an image or an action must never carry: a browser would run them. */
const UNSAFE_URL = /^\s*(?:javascript|vbscript|livescript):|^\s*data:\s*(?:text\/html|application\/xhtml\+xml|image\/svg\+xml)/i;

/** Whether `value` starts as a URL a browser would run (its first 64 characters: leading spaces, then the scheme). */
export function isUnsafeUrl(value: string): boolean {
  return UNSAFE_URL.test(value.slice(0, 64));
}

/** Why a message is refused: the reason for the turn's event and a sentence. */
export interface A2UIProblem {
  reason: 'unsafe-url' | 'too-deep' | 'too-large';
  message: string;
}

/**
 * The first problem of one message (walked without recursion, so no nesting can exhaust the stack), or
 * undefined: a string that is a URL a browser runs (`javascript:`, `data:text/html`…), nesting past
 * {@link MAX_A2UI_DEPTH}, or more than {@link MAX_A2UI_MESSAGE_CHARS} characters and values.
 */
export function a2uiProblem(message: unknown): A2UIProblem | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: message, depth: 0 }];
  let size = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    size += 1;
    if (typeof value === 'string') {
      size += value.length;
      if (isUnsafeUrl(value))
        return { reason: 'unsafe-url', message: 'an A2UI message carries a URL a browser would run (a script or an HTML document)' };
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_A2UI_DEPTH) return { reason: 'too-deep', message: `an A2UI message nests deeper than ${MAX_A2UI_DEPTH} levels` };
      if (Array.isArray(value)) for (const item of value) stack.push({ value: item, depth: depth + 1 });
      else
        for (const [key, item] of Object.entries(value)) {
          size += key.length;
          stack.push({ value: item, depth: depth + 1 });
        }
    }
    if (size > MAX_A2UI_MESSAGE_CHARS)
      return { reason: 'too-large', message: `an A2UI message is larger than ${MAX_A2UI_MESSAGE_CHARS} characters` };
  }
  return undefined;
}
