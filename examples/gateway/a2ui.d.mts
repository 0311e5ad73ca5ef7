/** Types of a2ui.mjs, for the TypeScript tests. */
import type { SurfaceActionAnswer } from '../../dist/index.js';

/** A2UI v1.0's basic catalog: what a replica tells agents it draws unless told. */
export declare const DEFAULT_A2UI_CATALOGS: readonly string[];
/** `A4H_GATEWAY_A2UI_CATALOGS`: read when `--a2ui-catalogs` is not given. */
export declare const A2UI_CATALOGS_ENV: string;
export declare const MAX_CATALOGS: number;
export declare const MAX_CATALOG_ID: number;
export declare const MAX_ACTION_DEPTH: number;
export declare const MAX_CONTEXT_CHARS: number;
export declare const MAX_DATA_MODEL_CHARS: number;
export declare const MAX_CREATION_CHARS: number;

/** The catalogs of `--a2ui-catalogs` (or the environment): `none` gives none; neither given, the default. */
export declare function a2uiCatalogsOf(flag: string | undefined, env: Record<string, string | undefined>): string[];
/** The client's `a2ui` option for `catalogs` (none when empty), to spread into `createA2A`'s options. */
export declare function a2uiOptionOf(catalogs: readonly string[]): { a2ui?: { catalogs: string[] } };
/** Whether a message body carries an A2UI action (`action` or `surface` given). */
export declare function carriesAction(body: Record<string, unknown>): boolean;
/** A body's A2UI action checked and made into the turn's fields; a `Refusal` (400) when it fails a check. */
export declare function actionTurnOf(body: Record<string, unknown>): { fields: SurfaceActionAnswer; surfaceId: string; name: string };
