/** The AI app's validated configuration, injected by this token. */
export const AI_CONFIG = Symbol('AI_CONFIG');
