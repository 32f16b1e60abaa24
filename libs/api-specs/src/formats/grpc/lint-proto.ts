import type { LintFinding } from '#contracts';
import type { ProtoDocument, ProtoType } from './grpc.format.js';

/**
 * What a reader of the .proto file misses: rpcs without a comment (a warning: search and agents
 * have only the name), services, messages, enums and fields without one, and messages and enums
 * no rpc uses. A file without services (shared types) has nothing to use its types: those are
 * not reported unused.
 */
export function lintProto(document: ProtoDocument): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const service of document.services) {
    if (!service.description) {
      findings.push({
        code: 'proto-service-description',
        severity: 'info',
        message: `The service ${service.name} has no comment`,
        path: `service ${service.name}`,
      });
    }
    for (const method of service.methods.filter((candidate) => !candidate.description)) {
      findings.push({
        code: 'proto-rpc-description',
        severity: 'warning',
        message: `The rpc ${service.name}.${method.name} has no comment`,
        path: `service ${service.name}.${method.name}`,
        // As the overview lists it.
        operation: `RPC ${service.fullName}/${method.name}`,
      });
    }
  }
  for (const type of document.types) {
    const at = `${type.kind} ${type.name}`;
    if (!type.description)
      findings.push({ code: 'proto-type-description', severity: 'info', message: `The ${type.kind} ${type.name} has no comment`, path: at });
    if (type.kind !== 'message') continue;
    for (const field of type.fields.filter((candidate) => !candidate.description)) {
      findings.push({
        code: 'proto-field-description',
        severity: 'hint',
        message: `The field ${type.name}.${field.name} has no comment`,
        path: `${at}.${field.name}`,
      });
    }
  }
  if (document.services.length === 0) return findings;
  for (const type of unused(document)) {
    findings.push({
      code: type.kind === 'message' ? 'proto-unused-message' : 'proto-unused-enum',
      severity: 'info',
      message: `The ${type.kind} ${type.name} is defined but no rpc uses it`,
      path: `${type.kind} ${type.name}`,
    });
  }
  return findings;
}

/**
 * Messages and enums no rpc's request or response leads to through its fields, but those nested
 * in one of them: the message that holds them is the finding.
 */
function unused(document: ProtoDocument): ProtoType[] {
  const types = new Map(document.types.map((type) => [type.name, type]));
  const reached = new Set<string>();
  const pending = document.services.flatMap((service) => service.methods.flatMap((method) => [method.requestType, method.responseType]));
  while (pending.length > 0) {
    const name = pending.pop()!;
    const type = types.get(name);
    if (reached.has(name) || !type) continue;
    reached.add(name);
    if (type.kind === 'message') pending.push(...type.fields.flatMap((field) => (field.type === undefined ? [] : [field.type])));
  }
  const unreached = new Set(document.types.filter((type) => !reached.has(type.name)).map((type) => type.name));
  return document.types.filter((type) => unreached.has(type.name) && !unreached.has(type.name.slice(0, type.name.lastIndexOf('.'))));
}
