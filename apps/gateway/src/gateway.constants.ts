/** The gateway's validated configuration, injected by this token. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
