import type { core } from 'zod/mini';

/**
 * A zod issue in words, for `card get --validate` (the command's full schema check; the library reads
 * cards without zod). `zod/mini` ships no messages of its own, and setting zod's global locale would
 * change the host app's zod too; the words are the library's own readers' (`validation.ts`).
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
