import { createHash } from 'node:crypto';
import { DomainError } from '../../src/core/errors';
import {
  bodyDigest,
  parseSignatureDate,
  parseSignatureParams,
  signingDigest,
  signingString,
  type SignedRequest,
} from '../../src/auth/signature';

const KEY = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const SIG = Buffer.from('a 64 byte ed25519 signature would be here, this is just some text').toString('base64');

describe('parseSignatureParams', () => {
  it('parses well-formed parameters', () => {
    const params = parseSignatureParams(
      `keyId="${KEY}",algorithm="ed25519-sha256",headers="(request-target) date digest",signature="${SIG}"`,
    );
    expect(params).toEqual({
      keyId: KEY,
      algorithm: 'ed25519-sha256',
      headers: ['(request-target)', 'date', 'digest'],
      signature: Buffer.from(SIG, 'base64'),
    });
  });

  it('accepts any parameter order and spaces around commas', () => {
    const params = parseSignatureParams(`signature="AAEC" , headers="(request-target) x-date",  keyId="${KEY}",algorithm="ed25519-sha256"`);
    expect(params?.keyId).toBe(KEY);
    expect(params?.headers).toEqual(['(request-target)', 'x-date']);
    expect(params?.signature).toEqual(Buffer.from([0, 1, 2]));
  });

  it('defaults headers to (request-target)', () => {
    expect(parseSignatureParams(`keyId="${KEY}",algorithm="ed25519-sha256",signature="AAEC"`)?.headers).toEqual(['(request-target)']);
  });

  it('lowercases header names and splits on any whitespace', () => {
    expect(parseSignatureParams(`keyId="k",algorithm="a",headers="(Request-Target)  Date\tDigest",signature="AAEC"`)?.headers).toEqual([
      '(request-target)',
      'date',
      'digest',
    ]);
  });

  it('accepts padded base64', () => {
    expect(parseSignatureParams('keyId="k",algorithm="a",signature="AAE="')?.signature).toEqual(Buffer.from([0, 1]));
    expect(parseSignatureParams('keyId="k",algorithm="a",signature="AA=="')?.signature).toEqual(Buffer.from([0]));
  });

  it.each([
    ['missing keyId', 'algorithm="ed25519-sha256",signature="AAEC"'],
    ['empty keyId', 'keyId="",algorithm="ed25519-sha256",signature="AAEC"'],
    ['missing algorithm', 'keyId="k",signature="AAEC"'],
    ['missing signature', 'keyId="k",algorithm="ed25519-sha256"'],
    ['empty signature', 'keyId="k",algorithm="ed25519-sha256",signature=""'],
    ['duplicate keyId', 'keyId="k",keyId="j",algorithm="ed25519-sha256",signature="AAEC"'],
    ['duplicate signature', 'keyId="k",algorithm="ed25519-sha256",signature="AAEC",signature="AAEC"'],
    ['bad base64 (punctuation)', 'keyId="k",algorithm="ed25519-sha256",signature="not base64!"'],
    ['bad base64 (url alphabet)', 'keyId="k",algorithm="ed25519-sha256",signature="ab-_"'],
    ['bad base64 (too much padding)', 'keyId="k",algorithm="ed25519-sha256",signature="A==="'],
    ['garbage', 'garbage'],
    ['empty', ''],
    ['unquoted value', 'keyId=k,algorithm="ed25519-sha256",signature="AAEC"'],
    ['missing comma', 'keyId="k" algorithm="ed25519-sha256",signature="AAEC"'],
    ['unterminated quote', 'keyId="k,algorithm="ed25519-sha256",signature="AAEC'],
    ['trailing garbage', 'keyId="k",algorithm="ed25519-sha256",signature="AAEC";x'],
    ['scheme prefix left in', 'Signature keyId="k",algorithm="ed25519-sha256",signature="AAEC"'],
  ])('returns null for %s', (_label, value) => {
    expect(parseSignatureParams(value)).toBeNull();
  });
});

function request(method: string, target: string, headers: Record<string, string>): SignedRequest {
  return { method, target, header: (name) => headers[name] };
}

describe('signingString', () => {
  const headers = { date: 'Sun, 22 Nov 2026 10:00:00 GMT', digest: 'SHA-256=abc=', 'x-account-id': 'GABC' };

  it('builds (request-target) from the lowercase method and the path and query exactly as sent', () => {
    expect(signingString(request('POST', '/lots/5/bids?currency=EUR&x=%20A+b', headers), ['(request-target)'])).toBe(
      '(request-target): post /lots/5/bids?currency=EUR&x=%20A+b',
    );
    expect(signingString(request('get', '/lots?filter[state]=active&page[limit]=5', headers), ['(request-target)'])).toBe(
      '(request-target): get /lots?filter[state]=active&page[limit]=5',
    );
  });

  it('joins one line per signed header, in the order given', () => {
    expect(signingString(request('PUT', '/a', headers), ['(request-target)', 'date', 'digest'])).toBe(
      '(request-target): put /a\ndate: Sun, 22 Nov 2026 10:00:00 GMT\ndigest: SHA-256=abc=',
    );
    expect(signingString(request('PUT', '/a', headers), ['digest', 'x-account-id', '(request-target)'])).toBe(
      'digest: SHA-256=abc=\nx-account-id: GABC\n(request-target): put /a',
    );
  });

  it('keeps an empty header value', () => {
    expect(signingString(request('GET', '/a', { date: '' }), ['date'])).toBe('date: ');
  });

  it('throws a 401 signature_invalid when a signed header is missing', () => {
    let caught: unknown;
    try {
      signingString(request('GET', '/a', headers), ['(request-target)', 'x-date']);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    const err = caught as DomainError;
    expect(err.status).toBe(401);
    expect(err.kind).toBe('unauthenticated');
    expect(err.code).toBe('signature_invalid');
    expect(err.items).toHaveLength(1);
  });
});

describe('signingDigest', () => {
  it('is the SHA-256 of the UTF-8 signing string', () => {
    const text = '(request-target): get /ünï\ndate: x';
    expect(signingDigest(text)).toEqual(createHash('sha256').update(Buffer.from(text, 'utf8')).digest());
    expect(signingDigest(text)).toHaveLength(32);
  });
});

describe('parseSignatureDate', () => {
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 37)],
    ['Sun, 22 Nov 2026 10:00:00 GMT', Date.UTC(2026, 10, 22, 10, 0, 0)],
    ['2026-11-22T10:00:00Z', Date.UTC(2026, 10, 22, 10, 0, 0)],
    ['2026-11-22T10:00:00.123Z', Date.UTC(2026, 10, 22, 10, 0, 0, 123)],
    ['2026-11-22T12:30:00+02:30', Date.UTC(2026, 10, 22, 10, 0, 0)],
    ['2026-11-22T05:00:00-05:00', Date.UTC(2026, 10, 22, 10, 0, 0)],
  ])('parses %j', (value, ms) => {
    expect(parseSignatureDate(value)).toBe(ms);
  });

  it.each([
    'Sunday, 06-Nov-94 08:49:37 GMT',
    'Sun Nov  6 08:49:37 1994',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    '2026-11-22',
    '2026-11-22T10:00:00',
    '2026-11-22 10:00:00Z',
    '2026-13-22T10:00:00Z',
    '2026-11-22T25:00:00Z',
    '1795341600',
    '',
    'garbage',
  ])('returns null for %j', (value) => {
    expect(parseSignatureDate(value)).toBeNull();
  });
});

describe('bodyDigest', () => {
  it('is SHA-256= and the base64 SHA-256 of the body', () => {
    const body = Buffer.from('{"data":{"type":"bids","attributes":{"amount":"110.00"}}}');
    expect(bodyDigest(body)).toBe(`SHA-256=${createHash('sha256').update(body).digest('base64')}`);
  });

  it('has the known value for an empty body', () => {
    expect(bodyDigest(Buffer.alloc(0))).toBe('SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});
