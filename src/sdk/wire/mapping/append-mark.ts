/**
 * The SDK's v0.3 HTTP+JSON client drops `append` from artifact-update events (S6 in the research
 * notes): chunks that extend an artifact arrive as replacements, and a reply streamed in appends
 * shows only its last chunk. It does keep the event's `metadata`, so the flag is carried across in
 * it: each `artifactUpdate` that says `"append": true` on the wire gets this mark in its
 * metadata, and the mapping (`from-sdk.ts`) reads the mark back and removes it.
 */
export const APPEND_MARK = 'a4h_append';
