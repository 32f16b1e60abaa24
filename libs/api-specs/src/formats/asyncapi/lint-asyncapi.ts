import type { LintFinding } from '#contracts';
import { spectralFindings } from '../../lint/spectral-lint.js';
import { asyncOperations } from './asyncapi-operations.js';
import { type AsyncApiDocument, majorVersion } from './read-asyncapi.js';

/** Spectral's `asyncapi` ruleset (its recommended rules), for AsyncAPI 2.x and 3.0, on the document as written. */
export function lintAsyncApi(document: AsyncApiDocument): Promise<LintFinding[]> {
  return spectralFindings(document, 'asyncapi', majorVersion(document) === 2 ? operation2 : operation3(document));
}

/** `PUBLISH user/signedup` for a path inside `channels.user/signedup.publish`, as the overview lists it. */
function operation2([root, channel, verb]: string[]): string | undefined {
  return root === 'channels' && channel !== undefined && (verb === 'publish' || verb === 'subscribe') ? `${verb.toUpperCase()} ${channel}` : undefined;
}

/** `SEND user/signedup` for a path inside `operations.<key>`: its action and its channel's address. */
function operation3(document: AsyncApiDocument): (path: string[]) => string | undefined {
  const operations = new Map(asyncOperations(document).map((entry) => [entry.operationId, `${entry.method} ${entry.path}`]));
  return ([root, key]) => (root === 'operations' && key !== undefined ? operations.get(key) : undefined);
}
