import { Matches } from 'class-validator';

/**
 * PostgreSQL text cannot hold NUL: refuse it with a 400 rather than fail the query with a 500.
 * `each` checks every item of an array.
 */
export const NoNul = (field: string, { each = false } = {}) =>
  Matches(/^[^\u0000]*$/, { each, message: `${field} must not contain NUL characters` });
