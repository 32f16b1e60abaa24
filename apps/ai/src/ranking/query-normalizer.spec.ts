import {
  expandAbbreviations,
  isAbbreviation,
  isNamedPath,
  namedOperations,
  namedThingTypes,
  nameWords,
  SOMEONE,
  withoutRequestFraming,
} from './query-normalizer.js';

describe(expandAbbreviations.name, () => {
  it('should spell out abbreviations beside them, whatever their case', () => {
    expect(expandAbbreviations('send SMS otp')).toBe('send SMS (text message) otp (one-time password verification code)');
    expect(expandAbbreviations('backup my db')).toBe('backup my db (database)');
  });

  it('should leave ordinary words and words that merely contain an abbreviation alone', () => {
    expect(expandAbbreviations('dbase imaging information')).toBe('dbase imaging information');
  });

  it('should tell which words it spells out', () => {
    expect(isAbbreviation('acct')).toBe(true);
    expect(isAbbreviation('constructor')).toBe(false);
  });
});

describe('names in a query', () => {
  it.each([
    ["Play a song from Taylor Swift's newest album"],
    ['What is the genre of The Mandalorian?'],
    ["Play my playlist 'My Rock'"],
    ['add it to a new playlist called "Current"'],
    ['add it to a new playlist called “Current”'],
    ['pause the song. Then play it on Kitchen speaker'],
    ['Follow Taylor Swift'],
    ["Add Songs To My 'Road Trip' Playlist"],
  ])('should see a name in %p', (query) => {
    expect(nameWords(query).size).toBeGreaterThan(0);
  });

  it.each([
    ['Send an invoice to a customer'],
    ['live bid/ask fx rates for EUR/USD and other currency pairs'],
    ["the customer's orders and the users' accounts"],
    ['convert xml to JSON. Then validate it'],
    ['Send Text Messages To Customers'],
  ])('should see no name in %p', (query) => {
    expect(nameWords(query).size).toBe(0);
  });
});

describe(nameWords.name, () => {
  it('should collect the words of quoted titles and capitalised words inside sentences, in lower case', () => {
    expect([...nameWords("Add The Dark Side of the Moon to my 'Road Trip' playlist")].sort()).toEqual(['dark', 'moon', 'road', 'side', 'the', 'trip']);
  });
});

describe(withoutRequestFraming.name, () => {
  it.each([
    ['find me APIs that process payments', 'process payments'],
    ['I need an API to send sms', 'send sms'],
    ['Is there an API for weather forecasts?', 'weather forecasts?'],
    ['which APIs can geocode addresses', 'geocode addresses'],
    ['API for currency conversion', 'currency conversion'],
    ['an api that lets me send email', 'send email'],
    ['Can you recommend a service to translate text', 'translate text'],
    ["we're looking for a REST API that handles invoices", 'handles invoices'],
    ['Show me all services that expose SMS', 'expose SMS'],
    ['I would like an API for stock prices', 'stock prices'],
    ['How can I send an SMS?', 'send an SMS?'],
    ['What is the best way to geocode addresses', 'geocode addresses'],
    ['We need to verify phone numbers', 'verify phone numbers'],
    ["I'm trying to track parcels", 'track parcels'],
    ['help me find an API to send faxes', 'send faxes'],
    ['I’m trying to track parcels', 'track parcels'],
    ['What’s the best way to geocode addresses', 'geocode addresses'],
    ["I'd like an API to send sms", 'send sms'],
    ['find me a service that converts currency', 'converts currency'],
  ])('should take %p as a request for %p', (query, need) => {
    expect(withoutRequestFraming(query)).toBe(need);
  });

  it.each([
    ['find podcast shows and episodes about a topic'],
    ['service mesh configuration'],
    ['get a list of tools'],
    ['APIs'],
    ['find me APIs that'],
    ['Help me'],
    ['help me to'],
    ['helpdesk tickets'],
    // "Services", "providers", "tools" are often what is searched for.
    ['list services for a namespace'],
    ['find providers that accept medicaid'],
    ['tools for linting openapi'],
    ['service to service authentication'],
    // Only function words would be left.
    ['what APIs do we have'],
  ])('should leave %p as it is', (query) => {
    expect(withoutRequestFraming(query)).toBe(query);
  });
});

describe(namedOperations.name, () => {
  it('should find the paths a query names, with the method right before each', () => {
    expect(namedOperations('GET /v1/charges')).toEqual([{ method: 'GET', path: '/v1/charges' }]);
    expect(namedOperations('what does post /Playlists/{playlist_id}/tracks/ need, and /me?')).toEqual([
      { method: 'POST', path: '/playlists/{playlist_id}/tracks' },
      { path: '/me' },
    ]);
  });

  it('should not take a slash inside a word, or a lone slash, for a path', () => {
    expect(namedOperations('search/filter by eur/usd rate / day')).toEqual([]);
  });
});

describe(isNamedPath.name, () => {
  it.each([
    ['/v1/charges', '/v1/charges', true],
    ['/v1/charges/{charge}', '/v1/charges/ch_123', true],
    ['/v1/charges/{charge}', '/v1/charges/{charge}', true],
    ['/v1/charges/{charge}/dispute', '/v1/charges', false],
    ['/V1/Charges/', '/v1/charges', true],
  ])('%s is %s: %p', (template, named, expected) => {
    expect(isNamedPath(template, named)).toBe(expected);
  });
});

describe(namedThingTypes.name, () => {
  it('reads the type of a named thing from the noun before it', () => {
    expect(namedThingTypes('When is the movie "Titanic" released?')).toEqual(['movie']);
    expect(namedThingTypes('List movies from the collection The Fast and the Furious')).toEqual(['collection']);
  });

  it('reads someone after "by" and in an owner', () => {
    expect(namedThingTypes('give me the number of movies directed by Sofia Coppola')).toEqual(SOMEONE);
    expect(namedThingTypes("When is Clint Eastwood's latest movie released?")).toEqual(SOMEONE);
  });

  it('says nothing when the query does not', () => {
    expect(namedThingTypes('What is the genre of The Mandalorian?')).toEqual([]);
    expect(namedThingTypes("find the movie 'Titanic'")).toEqual(['movie']);
    expect(namedThingTypes('integrate payments with Stripe')).toEqual([]);
    expect(namedThingTypes('list all movies')).toEqual([]);
  });
});
