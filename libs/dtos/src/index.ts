/*
 * The validators of request bodies that cross from the gateway to the AI app: the AI app checks
 * them, the gateway documents them from the same classes (its OpenAPI document), so a limit is
 * written once for both.
 */
export * from './feedback.dto.js';
export * from './search.dto.js';
