// The JSON-RPC error codes the host answers server requests with. Wire codes only: what a
// server reads in `error.code`. Local failures never cross the wire as these.

/** The user rejected a sampling request, or its answer (MCP's sampling examples use -1). */
export const USER_REJECTED = -1;
/** The request asked for something the host did not declare (a mode, tools), or is malformed. */
export const INVALID_PARAMS = -32602;
/** The host could not do it (no language model, the model failed). */
export const INTERNAL_ERROR = -32603;
/** Too many requests from one server are already waiting for the user. */
export const TOO_MANY_REQUESTS = -32000;
/** A tool call needs the user to visit URLs first (`error.data.elicitations`). */
export const URL_ELICITATION_REQUIRED = -32042;
