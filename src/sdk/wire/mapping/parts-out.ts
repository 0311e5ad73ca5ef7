import { isA2UIMediaType } from '../../../port/a2ui.js';
import type { Part as SdkPart } from '@a2a-js/sdk';
import { DATA_MEDIA_TYPE } from '../../../port/outgoing.js';
import type { OutgoingData, OutgoingFile, OutgoingMessage, OutgoingPart } from '../../../port/types.js';

/**
 * The user's message as parts, for both generations: the text (when there is any, or when nothing
 * else goes), then the files, then the data parts. A text-only message is one part, as before.
 */

type SdkContent = NonNullable<SdkPart['content']>;

/** v1.0 parts (the SDK's shape; its codec writes `raw` bytes as base64 from any Uint8Array). */
export function sdkParts(message: OutgoingMessage): SdkPart[] {
  if (message.parts !== undefined) return message.parts.map(sdkPart);
  const parts: SdkPart[] = [];
  if (message.text !== '' || (!message.files?.length && !message.data?.length)) {
    parts.push({ content: { $case: 'text', value: message.text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
  }
  for (const file of message.files ?? []) parts.push(sdkFile(file));
  for (const part of message.data ?? []) parts.push(sdkData(part));
  return parts;
}

/** One of the caller's ordered parts (a text keeps the media type it was given, else text/plain). */
function sdkPart(part: OutgoingPart): SdkPart {
  if (part.kind === 'file') return sdkFile(part);
  if (part.kind === 'data') return sdkData(part);
  return { content: { $case: 'text', value: part.text }, metadata: undefined, filename: '', mediaType: part.mediaType ?? 'text/plain' };
}

function sdkFile(file: OutgoingFile): SdkPart {
  return {
    // The SDK types `raw` as a Buffer; it only reads it as bytes (Buffer.from), so the caller's Uint8Array goes uncopied.
    content:
      file.bytes !== undefined ? ({ $case: 'raw', value: file.bytes } as unknown as SdkContent) : { $case: 'url', value: file.uri ?? '' },
    metadata: undefined,
    filename: file.name ?? '',
    mediaType: file.mediaType,
  };
}

function sdkData(part: OutgoingData): SdkPart {
  return {
    content: { $case: 'data', value: part.data },
    metadata: part.metadata,
    filename: '',
    mediaType: part.mediaType ?? DATA_MEDIA_TYPE,
  };
}

/** v0.3 parts (`kind`s; file bytes in base64; a data part's value wrapped when it is no object, as the SDK's v0.3 translation does). */
export function legacyParts(message: OutgoingMessage): Record<string, unknown>[] {
  if (message.parts !== undefined) return message.parts.map(legacyPart);
  if (!message.files?.length && !message.data?.length) return [{ kind: 'text', text: message.text }];
  const parts: Record<string, unknown>[] = message.text === '' ? [] : [{ kind: 'text', text: message.text }];
  for (const file of message.files ?? []) parts.push(legacyFile(file));
  for (const part of message.data ?? []) parts.push(legacyData(part));
  return parts;
}

/** One of the caller's ordered parts, v0.3's way (a text part there has no media type). */
function legacyPart(part: OutgoingPart): Record<string, unknown> {
  if (part.kind === 'file') return legacyFile(part);
  if (part.kind === 'data') return legacyData(part);
  return { kind: 'text', text: part.text };
}

function legacyFile(file: OutgoingFile): Record<string, unknown> {
  const content: Record<string, unknown> = file.bytes !== undefined ? { bytes: toBase64(file.bytes) } : { uri: file.uri };
  content['mimeType'] = file.mediaType;
  if (file.name !== undefined) content['name'] = file.name;
  return { kind: 'file', file: content };
}

function legacyData(part: OutgoingData): Record<string, unknown> {
  // A one-message A2UI list goes as that message, as A2UI's agent SDK writes it for A2A 0.3 (whose data is an object).
  const data =
    Array.isArray(part.data) && part.data.length === 1 && isA2UIMediaType(part.metadata?.['mimeType']) ? part.data[0] : part.data;
  const plain = typeof data === 'object' && data !== null && !Array.isArray(data);
  if (plain) return part.metadata === undefined ? { kind: 'data', data } : { kind: 'data', data, metadata: part.metadata };
  return { kind: 'data', data: { value: data }, metadata: { ...part.metadata, data_part_compat: true } };
}

/** Base64 of some bytes: Node's Buffer over the same memory when there is one, else `btoa` in slices. */
export function toBase64(bytes: Uint8Array): string {
  const buffer = (
    globalThis as { Buffer?: { from(data: ArrayBufferLike, offset: number, length: number): { toString(encoding: string): string } } }
  ).Buffer;
  if (buffer !== undefined) return buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
