/** Headers the gateway sets on calls to the AI app; the AI app trusts them only with the service token. */
export const InternalHeader = {
  ServiceToken: 'x-service-token',
  RequestId: 'x-request-id',
  /** The registry revision the caller expects to be indexed (for status). */
  ApiRevision: 'x-api-revision',
  ApiOrg: 'x-api-org',
} as const;
