/** The AI app's validated configuration, injected by this token. */
export const AI_CONFIG = Symbol('AI_CONFIG');

/**
 * An operation's verb as the index holds it (the `method` of a chunk): upper-case letters, an
 * HTTP method or another kind's verb (`PUBLISH`, `QUERY`, `MUTATION`, `RPC`…).
 */
export const OPERATION_VERB = /^[A-Z]{1,16}$/;
