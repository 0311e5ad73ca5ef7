import type { DataPart } from '../../port/types.js';

import { isA2UIMediaType } from '../../port/a2ui.js';

export { A2UI_MEDIA_TYPE, A2UI_MEDIA_TYPE_SDK } from '../../port/a2ui.js';

/**
 * Whether a data part carries A2UI messages: its media type, in either spelling, in the part's
 * `metadata.mimeType` (the extension specification, A2A 0.3) or its `mediaType` (A2A 1.0), as the
 * official agent SDK's `is_a2ui_part` reads it.
 */
export function isA2UIPart(part: DataPart): boolean {
  return isA2UIMediaType(part.metadata?.['mimeType']) || isA2UIMediaType(part.mediaType);
}

/**
 * The A2UI messages a part carries, in order: its `data` when a list (the specification's shape), else
 * the one message it is (the official agent SDK writes one message per part; A2A 0.3's `DataPart.data`
 * must be an object).
 */
export function a2uiMessagesOf(part: DataPart): readonly unknown[] {
  return Array.isArray(part.data) ? part.data : [part.data];
}
