import { familyOf, familyVariants, phraseEquivalents } from './word-families.js';

// Lexemes as `to_tsvector('english', …)` stems the words (checked in PGlite).
describe(familyOf.name, () => {
  it.each([
    ['register', 'regist', 'registration', 'registr'],
    ['registry', 'registri', 'register', 'regist'],
    ['notify', 'notifi', 'notification', 'notif'],
    ['ship', 'ship', 'shipment', 'shipment'],
    ['shipper', 'shipper', 'ships', 'ship'],
    ['subscribe', 'subscrib', 'subscription', 'subscript'],
    ['deliver', 'deliv', 'delivery', 'deliveri'],
    ['create', 'creat', 'creation', 'creation'],
    ['creator', 'creator', 'created', 'creat'],
    ['describe', 'describ', 'description', 'descript'],
    ['consume', 'consum', 'consumption', 'consumpt'],
    ['submit', 'submit', 'submission', 'submiss'],
    ['transmit', 'transmit', 'transmission', 'transmiss'],
    ['verify', 'verifi', 'verification', 'verif'],
    ['identify', 'identifi', 'identification', 'identif'],
    ['supply', 'suppli', 'supplier', 'supplier'],
    ['settle', 'settl', 'settlement', 'settlement'],
    ['depart', 'depart', 'departure', 'departur'],
    ['employ', 'employ', 'employee', 'employe'],
    ['detect', 'detect', 'detector', 'detector'],
    ['administer', 'administ', 'administration', 'administr'],
    ['debug', 'debug', 'debugger', 'debugg'],
    ['program', 'program', 'programmer', 'programm'],
    ['pay', 'pay', 'payment', 'payment'],
    ['fail', 'fail', 'failure', 'failur'],
    ['recover', 'recov', 'recovery', 'recoveri'],
    ['analyse', 'analys', 'analysis', 'analysi'],
    ['move', 'move', 'movement', 'movement'],
  ])('should put %p (%s) and %p (%s) in one family', (_a, a, _b, b) => {
    expect(familyOf(a)).toBe(familyOf(b));
  });

  it.each([
    ['port', 'port', 'portion', 'portion'],
    ['new', 'new', 'news', 'news'],
    ['sign', 'sign', 'signal', 'signal'],
    ['sign', 'sign', 'signature', 'signatur'],
    ['list', 'list', 'listen', 'listen'],
    ['even', 'even', 'event', 'event'],
    ['mark', 'mark', 'market', 'market'],
    ['direct', 'direct', 'director', 'director'],
    ['direct', 'direct', 'directory', 'directori'],
    ['invent', 'invent', 'inventory', 'inventori'],
    ['factor', 'factor', 'factory', 'factori'],
    ['access', 'access', 'accessory', 'accessori'],
    ['count', 'count', 'county', 'counti'],
    ['state', 'state', 'statement', 'statement'],
    ['state', 'state', 'station', 'station'],
    ['quest', 'quest', 'question', 'question'],
    ['create', 'creat', 'creature', 'creatur'],
    ['chart', 'chart', 'charter', 'charter'],
    ['general', 'general', 'generate', 'generat'],
    ['part', 'part', 'party', 'parti'],
    ['police', 'polic', 'policy', 'polici'],
    ['treat', 'treat', 'treaty', 'treati'],
    ['commit', 'commit', 'commission', 'commiss'],
    ['commit', 'commit', 'committee', 'committe'],
    ['permit', 'permit', 'permission', 'permiss'],
    ['supply', 'suppli', 'supplement', 'supplement'],
    ['post', 'post', 'poster', 'poster'],
    ['corn', 'corn', 'corner', 'corner'],
    ['feat', 'feat', 'feature', 'featur'],
    ['text', 'text', 'texture', 'textur'],
    ['project', 'project', 'projector', 'projector'],
    ['flow', 'flow', 'flower', 'flower'],
    ['convert', 'convert', 'conversation', 'convers'],
  ])('should keep %p (%s) and %p (%s) apart', (_a, a, _b, b) => {
    expect(familyOf(a)).not.toBe(familyOf(b));
  });

  it('should leave what the stemmer already conflates, and lexemes with digits or punctuation, as they are', () => {
    // "customer" and "organization" are stemmed to "custom" and "organ" before any family is looked for.
    expect(familyOf('custom')).toBe('custom');
    expect(familyOf('organ')).toBe('organ');
    expect(familyOf('v2')).toBe('v2');
    expect(familyOf('pub/sub')).toBe('pub/sub');
  });

  it('should take a compound apart no further than a derivation goes', () => {
    expect(familyOf('connectionerror')).not.toBe(familyOf('connect'));
  });
});

describe(familyVariants.name, () => {
  it.each([
    ['regist', ['registr', 'registri']],
    ['registr', ['regist', 'registri']],
    ['notifi', ['notif']],
    ['subscrib', ['subscript']],
    ['ship', ['shipment', 'shipper']],
    ['deliv', ['deliveri']],
    ['creat', ['creation', 'creator']],
    ['pay', ['payment', 'payer', 'paye']],
  ])('should find the family of %s among what an index may hold', (lexeme, members) => {
    expect(familyVariants(lexeme)).toEqual(expect.arrayContaining(members));
    for (const variant of familyVariants(lexeme)) expect(familyOf(variant)).toBe(familyOf(lexeme));
  });

  it('should not reach words of other families', () => {
    for (const [lexeme, other] of [
      ['port', 'portion'],
      ['sign', 'signal'],
      ['state', 'statement'],
      ['direct', 'director'],
      ['count', 'counti'],
      ['invent', 'inventori'],
    ]) {
      expect(familyVariants(lexeme)).not.toContain(other);
    }
  });
});

describe(phraseEquivalents.name, () => {
  it.each([
    ['tell me when a customer signs up', ['signup', 'register', 'registration', 'enrol']],
    ['whenever someone signed-up', ['signup', 'register', 'registration', 'enrol']],
    ['notify me when a new user registers', ['signup', 'register', 'registration', 'enrol']],
    ['let me know when an order ships', ['ship', 'shipment', 'dispatch']],
    ['webhook when an invoice is paid', ['pay', 'payment']],
    ['alert us when a server goes down', ['outage', 'downtime']],
    ['when a flight takes off', ['departure', 'depart']],
    ['a user logs in from a new device', ['login', 'authenticate']],
  ])('should look up other words for the events in %p', (query, words) => {
    expect(phraseEquivalents(query)).toEqual(words);
  });

  it('should not repeat words the query holds', () => {
    expect(phraseEquivalents('dispatch a shipment when the order shipped')).toEqual(['ship']);
  });

  it.each([['check out this API'], ['prices are down today'], ['take off the label'], ['list new customers'], ['the signature of a document']])(
    'should add nothing to %p',
    (query) => {
      expect(phraseEquivalents(query)).toEqual([]);
    },
  );
});
