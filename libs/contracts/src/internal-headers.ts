/** Headers the gateway sets on calls to the AI app; the AI app trusts them only with the service token. */
export const InternalHeader = {
  ServiceToken: 'x-service-token',
  RequestId: 'x-request-id',
  /** The registry revision the caller expects to be indexed (for status). */
  ApiRevision: 'x-api-revision',
  ApiOrg: 'x-api-org',
  /** The caller's orgs, comma-separated, for resources the AI app owns (reindex runs). */
  CallerOrgs: 'x-caller-orgs',
} as const;

/** Org ids are free text: each is URI-encoded so commas inside them survive the header. */
export function encodeOrgList(orgs: string[]): string {
  return orgs.map(encodeURIComponent).join(',');
}

export function decodeOrgList(header: string | undefined): string[] {
  return (header ?? '').split(',').filter(Boolean).map(decodeURIComponent);
}
