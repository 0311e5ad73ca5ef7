/**
 * Files between A2A and the AI SDK: the agent's files as file parts (bytes as a `data:` URL, a URI
 * as it came), the person's file parts as A2A files (a `data:` URL as bytes, any other URL as a URI).
 */
import { A2AError } from '../errors.js';
import type { FileAttachment } from '../port/events.js';
import type { OutgoingFile } from '../port/types.js';
import type { A2AFilePart, A2APartMetadata } from './types.js';

/** The media type of a file the agent sent without one. */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

/** Base64 of `bytes`, in slices (a spread of a large array would pass the engine's argument limit). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The `data:` URL of `bytes`. */
export function dataUrlOf(bytes: Uint8Array, mediaType: string): string {
  return `data:${mediaType};base64,${base64Of(bytes)}`;
}

/** A file part's URL, media type and name from an agent's (or a person's) file; undefined for a file with neither bytes nor URI. */
export function filePartOf(file: FileAttachment): A2AFilePart | undefined {
  const mediaType = file.mediaType ?? UNKNOWN_MEDIA_TYPE;
  const url = file.bytes !== undefined ? dataUrlOf(file.bytes, mediaType) : file.uri;
  if (url === undefined) return undefined;
  const part: A2AFilePart = { type: 'file', mediaType, url };
  if (file.name !== undefined) {
    part.filename = file.name;
    part.providerMetadata = filenameMetadata(file.name);
  }
  return part;
}

/** `{ a4h: { filename } }`: a streamed file chunk's only place for the name. */
export function filenameMetadata(filename: string): A2APartMetadata {
  return { a4h: { filename } };
}

const DATA_URL = /^data:([^,]*?)(;base64)?,(.*)$/s;

/** The bytes of a `data:` URL (base64 or percent-encoded); undefined for any other URL. */
function bytesOfDataUrl(url: string): Uint8Array | undefined {
  const match = DATA_URL.exec(url);
  if (match === null) return undefined;
  const [, , base64, body = ''] = match;
  try {
    if (base64 === undefined) return new TextEncoder().encode(decodeURIComponent(body));
    const binary = atob(body);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch (cause) {
    throw new A2AError({ kind: 'input', operation: 'turn', message: 'a file part has a malformed data: URL', cause });
  }
}

/** A person's file part as the A2A file it sends: bytes from a `data:` URL, else the URL as a URI. */
export function outgoingFileOf(part: { url: string; mediaType: string; filename?: string }): OutgoingFile {
  const bytes = bytesOfDataUrl(part.url);
  const file: OutgoingFile = bytes === undefined ? { mediaType: part.mediaType, uri: part.url } : { mediaType: part.mediaType, bytes };
  if (part.filename !== undefined) file.name = part.filename;
  return file;
}
