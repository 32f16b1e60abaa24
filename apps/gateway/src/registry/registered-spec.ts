import type { SpecFileType, SpecFormats } from '#api-specs';

/** A registered spec as the registry serves it back: the text it was sent as. */
export interface RegisteredSpec {
  text: string;
  type: SpecFileType;
  /** `<name>-<version>.<json|yaml|graphql|proto>`, safe in a header and on any file system. */
  fileName: string;
}

/** Its file type is its format's (`SpecFormat.fileType`); plain text for a format this build no longer has. */
export function registeredSpec(api: { name: string; version: string; spec: string; kind: string }, formats: SpecFormats): RegisteredSpec {
  const type = formats.byKind(api.kind)?.fileType(api.spec) ?? { extension: 'txt', mediaType: 'text/plain' };
  return { text: api.spec, type, fileName: `${fileStem(api.name, api.version)}.${type.extension}` };
}

/** Letters without accents, digits, `.`, `_` and `-`: the rest of a name (slashes, quotes, spaces) becomes one `-`. */
function fileStem(name: string, version: string): string {
  const safe = (part: string) =>
    part
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '');
  return [safe(name), safe(version)].filter(Boolean).join('-').slice(0, 150) || 'spec';
}
