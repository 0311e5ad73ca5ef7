/**
 * Framework-internal records carried as data parts: ADK marks its tool calls with
 * `metadata.adk_type` (`function_call`, `function_response`, …), kagent with `kagent_type` (and
 * `kagent_adk_type`). They tell what the agent is doing, never what it answers.
 */
const RECORD_KEY = /^(?:adk|kagent(?:_adk)?)_type$/;

/** The record's type when a data part's metadata marks it as a framework record; else undefined. */
export function recordKind(metadata: Record<string, unknown> | undefined): string | undefined {
  if (metadata === undefined) return undefined;
  for (const key in metadata) {
    const value = metadata[key];
    if (typeof value === 'string' && value !== '' && RECORD_KEY.test(key)) return value;
  }
  return undefined;
}
