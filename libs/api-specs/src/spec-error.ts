/** The spec cannot be indexed; `message` is shown to the user as the reason. */
export class SpecError extends Error {
  override name = 'SpecError';
}
