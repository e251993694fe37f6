/**
 * The name of the one global the in-page runtime is installed on, in each document's isolated
 * world: the runtime (`page/core/state.ts`) installs itself there and the bridge
 * (`runtime/page_runtime.ts`) looks for it there.
 *
 * @module
 */

/** The name of the global the runtime is installed on (the bridge looks for it there). */
export const RUNTIME_GLOBAL = "__browserAgent";
