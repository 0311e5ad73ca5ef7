/**
 * The agent's files and data parts in the DOM: pictures inline, other files as download links, data
 * parts as a collapsed JSON block. Bytes become a blob URL once per attachment; a file sent by URI is
 * linked only when the URI is http(s).
 */
import type { Attachment } from 'a4h-a2a';

export function attachmentElement(attachment: Attachment): HTMLElement {
  if (attachment.kind === 'data') {
    const details = document.createElement('details');
    details.className = 'attachment data';
    const summary = document.createElement('summary');
    summary.textContent = `data (${attachment.mediaType ?? 'application/json'})`;
    const pre = document.createElement('pre');
    pre.textContent = JSON.stringify(attachment.data, null, 2);
    details.append(summary, pre);
    return details;
  }
  const type = attachment.mediaType ?? 'application/octet-stream';
  const name = attachment.name ?? 'file';
  const href = hrefOf(attachment.bytes, attachment.uri, type);
  if (href !== undefined && type.startsWith('image/')) {
    const figure = document.createElement('figure');
    figure.className = 'attachment image';
    const img = document.createElement('img');
    img.src = href;
    img.alt = name;
    const caption = document.createElement('figcaption');
    caption.textContent = name;
    figure.append(img, caption);
    return figure;
  }
  const link = document.createElement(href === undefined ? 'span' : 'a');
  link.className = 'attachment file';
  link.textContent = `${name} (${type}${attachment.size === undefined ? '' : `, ${attachment.size} bytes`})`;
  if (link instanceof HTMLAnchorElement && href !== undefined) {
    link.href = href;
    link.download = name;
    if (attachment.bytes === undefined) link.rel = 'noopener noreferrer';
  }
  return link;
}

function hrefOf(bytes: Uint8Array | undefined, uri: string | undefined, type: string): string | undefined {
  if (bytes !== undefined) return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  if (uri !== undefined && /^https?:\/\//i.test(uri)) return uri;
  return undefined;
}

/** A file the user picked, as a file part: its bytes, name and media type. */
export async function fileToPart(file: File): Promise<{ name: string; mediaType: string; bytes: Uint8Array }> {
  return { name: file.name, mediaType: file.type || 'application/octet-stream', bytes: new Uint8Array(await file.arrayBuffer()) };
}
