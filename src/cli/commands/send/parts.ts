import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OutgoingPart } from '../../../node/index.js';
import { mediaTypeOf, readAttachment } from '../../turns/attachments.js';
import { UsageError } from '../../core/io.js';

/** The part flags of `send`: each repeatable, in the order given; `--media-type` names the type of the part flag before it. */
export const PART_OPTIONS = {
  text: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  data: { type: 'string', multiple: true },
  'media-type': { type: 'string', multiple: true },
  attach: { type: 'string', multiple: true },
} as const;

/** A part flag as given, before its content is read. */
interface PartFlag {
  flag: 'text' | 'file' | 'data' | 'attach';
  value: string;
  mediaType?: string;
}

/**
 * The part flags in command-line order, each with the `--media-type` right after it (the specification's
 * §8.2: a media type binds to the part flag immediately before it; one with none before it, or a second
 * one for the same part, is a usage error). `options` are the command's, so the tokens are its own.
 */
export function partFlags(args: string[], options: NonNullable<ParseArgsConfig['options']>): PartFlag[] {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  const flags: PartFlag[] = [];
  let last: PartFlag | undefined;
  for (const token of tokens) {
    if (token.kind !== 'option') {
      last = undefined;
      continue;
    }
    const value = token.value ?? '';
    if (token.name === 'text' || token.name === 'file' || token.name === 'data' || token.name === 'attach') {
      last = { flag: token.name, value };
      flags.push(last);
    } else if (token.name === 'media-type') {
      if (last === undefined)
        throw new UsageError('--media-type names the type of the part flag just before it (--text, --file or --data)');
      if (last.mediaType !== undefined) throw new UsageError(`--media-type is given twice for --${last.flag} ${last.value}`);
      if (!/^[^\s/;]+\/[^\s/;]+(\s*;.*)?$/.test(value))
        throw new UsageError(`--media-type takes a type such as application/pdf, not "${value}"`);
      last.mediaType = value;
    } else {
      last = undefined;
    }
  }
  return flags;
}

const isUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/**
 * The message's parts, in order: the words after the agent (one text part, first), then each part flag's
 * part. `--text` is its string; `--file` a local file's bytes (its media type from `--media-type`, else
 * its extension) or, for an http(s) URL, a file by URI that the agent fetches; `--data` the JSON of a
 * file, or of stdin for `-`. `--attach` is `--file` for a path.
 */
export async function readParts(words: string[], flags: PartFlag[], stdin: () => Promise<string>): Promise<OutgoingPart[]> {
  const parts: OutgoingPart[] = [];
  if (words.length > 0) parts.push({ kind: 'text', text: words.join(' ') });
  for (const flag of flags) parts.push(await readPart(flag, stdin));
  return parts;
}

async function readPart({ flag, value, mediaType }: PartFlag, stdin: () => Promise<string>): Promise<OutgoingPart> {
  switch (flag) {
    case 'text':
      return { kind: 'text', text: value, ...(mediaType === undefined ? {} : { mediaType }) };
    case 'data': {
      const source = value === '-' ? 'stdin' : value;
      let text: string;
      try {
        text = value === '-' ? await stdin() : await readFile(value, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read --data ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      try {
        return { kind: 'data', data: JSON.parse(text) as unknown, ...(mediaType === undefined ? {} : { mediaType }) };
      } catch {
        throw new UsageError(`--data ${source} is not JSON`);
      }
    }
    default: {
      if (flag === 'file' && isUrl(value)) {
        return { kind: 'file', uri: value, mediaType: mediaType ?? mediaTypeOf(new URL(value).pathname) };
      }
      const file = await readAttachment(value);
      return { kind: 'file', ...file, ...(mediaType === undefined ? {} : { mediaType }) };
    }
  }
}

/** All of stdin, as text (for `--data -`). */
export async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}
