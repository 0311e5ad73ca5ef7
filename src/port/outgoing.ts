import { A2UI_EXTENSION_PREFIX, isA2UIMediaType } from './a2ui.js';
import { A2AError } from '../errors.js';
import type { CardSummary } from './card.js';
import type { OutgoingData, OutgoingFile, OutgoingMessage } from './types.js';

/** The media type of a data part that names none. */
export const DATA_MEDIA_TYPE = 'application/json';

function refuse(message: string): A2AError {
  return new A2AError({ kind: 'input', operation: 'turn', message });
}

/**
 * Refuses files and data parts a message cannot carry: a file without a media type, with both or
 * neither of bytes and URI, a URI that is no absolute URL, data that is no JSON, more than
 * `maxBytes` in all (bytes, URIs and data as JSON). Throws an `input` {@link A2AError}; says
 * nothing of the content.
 */
export function checkOutgoingParts(files: unknown, data: unknown, maxBytes: number): void {
  let total = 0;
  if (files !== undefined) {
    if (!Array.isArray(files)) throw refuse('files must be an array');
    files.forEach((file: OutgoingFile, i) => {
      const where = `file ${i + 1}${typeof file?.name === 'string' ? ` (${file.name})` : ''}`;
      if (typeof file !== 'object' || file === null) throw refuse(`${where} is not an object`);
      if (typeof file.mediaType !== 'string' || !/^[^\s/]+\/[^\s/]+$/.test(file.mediaType.split(';')[0]!.trim())) {
        throw refuse(`${where} needs a media type such as image/png`);
      }
      if (file.name !== undefined && typeof file.name !== 'string') throw refuse(`${where}: name must be a string`);
      const hasBytes = file.bytes !== undefined;
      if (hasBytes === (file.uri !== undefined)) throw refuse(`${where} needs exactly one of bytes and uri`);
      if (hasBytes && !(file.bytes instanceof Uint8Array)) throw refuse(`${where}: bytes must be a Uint8Array`);
      if (!hasBytes && (typeof file.uri !== 'string' || !URL.canParse(file.uri))) throw refuse(`${where}: uri must be an absolute URL`);
      total += hasBytes ? file.bytes!.length : file.uri!.length;
    });
  }
  if (data !== undefined) {
    if (!Array.isArray(data)) throw refuse('data must be an array');
    data.forEach((part: OutgoingData, i) => {
      if (typeof part !== 'object' || part === null || !('data' in part)) throw refuse(`data part ${i + 1} needs a data field`);
      if (part.mediaType !== undefined && typeof part.mediaType !== 'string')
        throw refuse(`data part ${i + 1}: mediaType must be a string`);
      let json: string | undefined;
      try {
        json = JSON.stringify(part.data);
      } catch {
        json = undefined;
      }
      if (json === undefined) throw refuse(`data part ${i + 1} is not JSON`);
      total += json.length;
    });
  }
  if (total > maxBytes) throw refuse(`the message's files and data are larger than ${maxBytes} bytes (maxAttachmentBytes)`);
}

/** `mediaType` (parameters and case ignored) is one of `modes`, or matches a `type/*` or `*\/*` there. */
export function acceptsMediaType(modes: readonly string[], mediaType: string): boolean {
  const wanted = essence(mediaType);
  const type = wanted.slice(0, wanted.indexOf('/'));
  return modes.some((mode) => {
    const offered = essence(mode);
    return offered === wanted || offered === '*/*' || offered === '*' || offered === `${type}/*`;
  });
}

function essence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/**
 * Refuses, before the message is sent, a file or data part whose media type the agent's card does
 * not take: not in its `defaultInputModes` nor in any skill's `inputModes`. A card that names no
 * input modes at all takes anything; a card that offers the A2UI extension takes A2UI's parts (its
 * actions), whatever its input modes say.
 */
export function checkInputModes(
  card: CardSummary,
  files: readonly OutgoingFile[] | undefined,
  data: readonly OutgoingData[] | undefined,
): void {
  if (files === undefined && data === undefined) return;
  const modes = [...(card.defaultInputModes ?? []), ...(card.skills ?? []).flatMap((skill) => skill.inputModes ?? [])];
  if (modes.length === 0) return;
  const a2ui = (card.extensions ?? []).some((extension) => extension.uri.startsWith(A2UI_EXTENSION_PREFIX));
  const types = [
    ...(files ?? []).map((file) => file.mediaType),
    ...(data ?? []).map((part) => part.mediaType ?? DATA_MEDIA_TYPE).filter((type) => !(a2ui && isA2UIMediaType(type))),
  ];
  for (const mediaType of types) {
    if (!acceptsMediaType(modes, mediaType)) {
      throw refuse(
        `the agent ${card.name} does not accept ${essence(mediaType)} (its card takes ${[...new Set(modes.map(essence))].join(', ')})`,
      );
    }
  }
}

/** The files a message sends: those among its ordered `parts` when it has them, else its `files`. */
export function outgoingFiles(message: OutgoingMessage): readonly OutgoingFile[] | undefined {
  if (message.parts === undefined) return message.files;
  const files: OutgoingFile[] = [];
  for (const part of message.parts) {
    if (part.kind !== 'file') continue;
    const { kind: _kind, ...file } = part;
    files.push(file);
  }
  return files.length === 0 ? undefined : files;
}

/** The data parts a message sends: those among its ordered `parts` when it has them, else its `data`. */
export function outgoingData(message: OutgoingMessage): readonly OutgoingData[] | undefined {
  if (message.parts === undefined) return message.data;
  const data: OutgoingData[] = [];
  for (const part of message.parts) {
    if (part.kind !== 'data') continue;
    const { kind: _kind, ...value } = part;
    data.push(value);
  }
  return data.length === 0 ? undefined : data;
}
