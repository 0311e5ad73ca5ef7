import type { core } from 'zod/mini';

/**
 * A validation issue in words. The library uses `zod/mini` (a small browser bundle), which ships
 * no messages of its own; setting zod's global locale would change the host app's zod too.
 */
export function describeIssue(issue: core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'is not valid';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? Number(issue.minimum) <= 1
          ? 'must not be empty'
          : `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'entries'}`
        : `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'entries'}`
        : `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be an http(s) URL' : `must be a valid ${issue.format}`;
    case 'custom':
      return issue.message;
    default:
      return 'is not valid';
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The dotted path of an issue's field, e.g. `supportedInterfaces.0.url`. */
export function issuePath(issue: core.$ZodIssue | undefined, whole: string): string {
  return issue?.path.map(String).join('.') || whole;
}
