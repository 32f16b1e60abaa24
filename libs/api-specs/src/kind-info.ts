import type { ApiKindInfo } from '#contracts';
import { defaultSpecFormats } from './spec-formats.module.js';

/** What a format plugin says of its kind, as plain data: a copy, without the plugin's methods or anything else it holds. */
export function kindInfo(format: ApiKindInfo): ApiKindInfo {
  const { kind, name, label, verbs, parts, fileExtensions } = format;
  return {
    kind,
    name,
    label,
    verbs: [...verbs],
    parts: { inputs: parts.inputs, body: parts.body, responses: parts.responses },
    fileExtensions: [...fileExtensions],
  };
}

let declared: readonly ApiKindInfo[] | undefined;

/**
 * The kinds as the spec format plugins say them, for what is written before Nest starts: the
 * docs' examples and descriptions, validation messages (decorators run when their class is
 * declared). Built on first use; at run time the same list comes from `SPEC_FORMATS`.
 */
export function declaredKinds(): readonly ApiKindInfo[] {
  return (declared ??= defaultSpecFormats().all.map(kindInfo));
}

/** `openapi, asyncapi, …`: every kind's name, for a description. */
export function declaredKindNames(): string {
  return declaredKinds()
    .map((known) => known.kind)
    .join(', ');
}
