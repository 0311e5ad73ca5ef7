import type { DataPart } from '../../port/types.js';

/** A2UI's media type (the extension specification's spelling). */
export const A2UI_MEDIA_TYPE = 'application/a2ui+json';

/** The spelling the official A2UI agent SDK still writes for v0.8 and v0.9 (the specification calls it deprecated). */
export const A2UI_MEDIA_TYPE_SDK = 'application/json+a2ui';

const SPELLINGS: ReadonlySet<string> = new Set([A2UI_MEDIA_TYPE, A2UI_MEDIA_TYPE_SDK]);

/** Whether a media type names A2UI, in either spelling (a parameter such as `; charset=utf-8` aside). */
function namesA2UI(value: unknown): boolean {
  return typeof value === 'string' && SPELLINGS.has(value.split(';')[0]!.trim().toLowerCase());
}

/**
 * Whether a data part carries A2UI messages: its media type, in either spelling, in the part's
 * `metadata.mimeType` (the extension specification, A2A 0.3) or its `mediaType` (A2A 1.0), as the
 * official agent SDK's `is_a2ui_part` reads it.
 */
export function isA2UIPart(part: DataPart): boolean {
  return namesA2UI(part.metadata?.['mimeType']) || namesA2UI(part.mediaType);
}

/**
 * The A2UI messages a part carries, in order: its `data` when a list (the specification's shape), else
 * the one message it is (the official agent SDK writes one message per part; A2A 0.3's `DataPart.data`
 * must be an object).
 */
export function a2uiMessagesOf(part: DataPart): readonly unknown[] {
  return Array.isArray(part.data) ? part.data : [part.data];
}
