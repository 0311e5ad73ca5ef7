/** Types of started-as.mjs. */

/** Whether `meta` is the module Node was started with (through symlinks too). */
export declare function startedAs(meta: ImportMeta): boolean;
