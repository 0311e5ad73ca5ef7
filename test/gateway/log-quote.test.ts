/** The gateway's log lines: names quoted and cut short, an error's reason quoted and kept (issue 46: reasons were cut at 64 characters). */
import { describe, expect, it } from 'vitest';
import { NAME_CHARS, quote, REASON_CHARS } from '../../examples/gateway/request.mjs';

describe("the gateway's log quoting", () => {
  it('a name is cut at 64 characters; a reason keeps up to 1,000, then says it was cut', () => {
    expect(NAME_CHARS).toBe(64);
    expect(quote('u'.repeat(100))).toBe(JSON.stringify(`${'u'.repeat(64)}…`));
    const reason = `resume of message "m1" failed: list-tasks to http://agent.internal/: ${'why '.repeat(100)}`;
    expect(JSON.parse(quote(reason, REASON_CHARS))).toBe(reason);
    expect(quote('r'.repeat(REASON_CHARS + 5), REASON_CHARS)).toBe(JSON.stringify(`${'r'.repeat(REASON_CHARS)}…`));
  });

  it('either way one line: a line break or an escape cannot forge another', () => {
    const hostile = 'x\nfake: line\u001b[2J\u2028';
    const quoted = quote(hostile, REASON_CHARS);
    expect(quoted).not.toMatch(/[\n\u001b\u2028]/);
    expect(JSON.parse(quoted)).toBe(hostile);
  });
});
