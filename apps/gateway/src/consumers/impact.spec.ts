import type { ApiChange, ChangeReport } from '#contracts';
import type { Consumer } from './consumer.js';
import { namedList, operationKey, withImpact } from './impact.js';

function consumer(id: string, operations: [string, string][] = []): Consumer {
  return {
    id,
    orgId: 'acme',
    apiId: 'api',
    name: id,
    teamName: null,
    contact: null,
    version: null,
    operations: operations.map(([method, path]) => ({ method, path })),
    source: 'declared',
    entityRef: null,
    tree: null,
    catalogPath: null,
    declaredBy: 'someone',
    lastSeenAt: new Date(0),
    createdAt: new Date(0),
  };
}

const removed: ApiChange = { severity: 'breaking', code: 'operation-removed', operation: 'GET /pets/{id}', location: '', message: 'removed' };
const added: ApiChange = { severity: 'non-breaking', code: 'operation-added', operation: 'POST /pets', location: '', message: 'added' };

function report(changes: ApiChange[], extra: Partial<ChangeReport> = {}): ChangeReport {
  const count = (severity: string) => changes.filter((change) => change.severity === severity).length;
  return { changes, breaking: count('breaking'), nonBreaking: count('non-breaking'), info: count('info'), complete: true, ...extra };
}

describe(withImpact.name, () => {
  it('should name on each breaking change the consumers that call its operation, whatever they named its path parameters', () => {
    const reader = consumer('reader', [['get', '/pets/{petId}']]);
    const writer = consumer('writer', [['POST', '/pets']]);
    const result = withImpact(report([removed, added]), [reader, writer]);

    expect(result.changes[0].affectedConsumers).toEqual(['reader']);
    // A non-breaking change reaches nobody, even one that calls it.
    expect(result.changes[1].affectedConsumers).toBeUndefined();
    expect(result.impact).toEqual({ affected: [expect.objectContaining({ consumerId: 'reader', certain: true })], mayBeAffected: [], unaffected: 1 });
  });

  it('should say that consumers who named no operations may be affected, and leave them out when nothing breaks', () => {
    const anyone = consumer('anyone');
    expect(withImpact(report([removed]), [anyone]).impact).toEqual({
      affected: [],
      mayBeAffected: [expect.objectContaining({ consumerId: 'anyone', certain: false })],
      unaffected: 0,
    });
    expect(withImpact(report([added]), [anyone]).impact).toEqual({ affected: [], mayBeAffected: [], unaffected: 1 });
  });

  it('should reach every consumer with a breaking change to the API as a whole', () => {
    const whole: ApiChange = { severity: 'breaking', code: 'server-removed', location: 'servers', message: 'gone' };
    const result = withImpact(report([whole]), [consumer('a', [['GET', '/a']]), consumer('b', [['GET', '/b']])]);
    expect(result.changes[0].affectedConsumers).toEqual(['a', 'b']);
    expect(result.impact!.affected.map((item) => item.consumerId)).toEqual(['a', 'b']);
  });

  it('should never call a consumer unaffected where an incomplete report did not compare what it calls', () => {
    const gap = { operation: 'GET /pets/{id}', location: 'response 200', reason: 'too deep' };
    const incomplete = report([], { complete: false, notCompared: [gap], incompleteReason: 'too deep' });
    const there = consumer('there', [['GET', '/pets/{x}']]);
    const elsewhere = consumer('elsewhere', [['GET', '/owners']]);
    const anyone = consumer('anyone');
    const { impact } = withImpact(incomplete, [there, elsewhere, anyone]);
    expect(impact!.mayBeAffected.map((item) => item.consumerId)).toEqual(['there', 'anyone']);
    expect(impact!.unaffected).toBe(1);

    // A gap in the whole, or a list of changes cut short, may hide anything.
    const whole = report([], { complete: false, notCompared: [{ location: 'document', reason: 'too large' }] });
    expect(withImpact(whole, [elsewhere]).impact!.mayBeAffected).toHaveLength(1);
    const cut = report([removed], { truncated: true });
    expect(withImpact(cut, [elsewhere]).impact!.mayBeAffected).toHaveLength(1);
  });
});

describe(operationKey.name, () => {
  it('should compare operations by method and path, not by the names of path parameters', () => {
    expect(operationKey({ method: 'get', path: '/pets/{petId}' })).toBe(operationKey('GET /pets/{id}'));
    expect(operationKey('QUERY pets')).toBe('QUERY pets');
    expect(operationKey({ method: 'GET', path: '/pets' })).not.toBe(operationKey('POST /pets'));
  });
});

describe(namedList.name, () => {
  it('should name the first few and count the rest', () => {
    expect(namedList([{ name: 'a', teamName: 'x' }, { name: 'b' }, { name: 'c' }], 2)).toBe('a (x), b and 1 more');
  });
});
