import type { ErrorItem } from '../../src/core/errors';
import { restItem } from '../../src/rest/fields';

const item = (field: string, detail: string): ErrorItem => ({ code: 'invalid_field', detail, source: { field } });

describe('restItem: a domain field shown where the client wrote it', () => {
  it('names a body attribute by its JSON pointer and its snake_case name', () => {
    expect(restItem(item('maxAmount', 'maxAmount: must be a price'), 'body')).toEqual({
      code: 'invalid_field',
      detail: 'max_amount: must be a price',
      source: { pointer: '/data/attributes/max_amount' },
    });
    expect(restItem(item('details.country', 'details.country is required'), 'body')).toMatchObject({
      detail: 'details/country is required',
      source: { pointer: '/data/attributes/details/country' },
    });
    expect(restItem(item('id', 'id: must be an account id'), 'body')).toMatchObject({ detail: 'data.id: must be an account id', source: { pointer: '/data/id' } });
  });

  it('names a query field by its parameter', () => {
    expect(restItem(item('filter.lotState', 'filter.lotState: unknown state'), 'query')).toMatchObject({
      detail: 'filter[lot_state]: unknown state',
      source: { parameter: 'filter[lot_state]' },
    });
    expect(restItem(item('page.cursor', 'page.cursor: malformed'), 'query')).toMatchObject({ source: { parameter: 'page[cursor]' } });
  });

  it('names an item of a bulk body by its index', () => {
    expect(restItem(item('2.amount', '2.amount: must be a number'), 'list')).toMatchObject({
      detail: 'amount: must be a number',
      source: { pointer: '/data/2/attributes/amount' },
    });
  });

  it('leaves other sources and their details as they are', () => {
    const header: ErrorItem = { code: 'unauthenticated', detail: 'bad signature', source: { header: 'signature' } };
    expect(restItem(header, 'body')).toBe(header);
  });
});

describe('restItem: a route whose wire names a field otherwise', () => {
  it('renames the top-level field before rendering it', () => {
    expect(restItem(item('accountId', 'accountId must be an account id'), { in: 'body', names: { accountId: 'id' } })).toEqual({
      code: 'invalid_field',
      detail: 'data.id must be an account id',
      source: { pointer: '/data/id' },
    });
    expect(restItem(item('platformId', 'platformId: bad'), { in: 'query', names: { platformId: 'filter.platformId' } })).toMatchObject({
      detail: 'filter[platform_id]: bad',
      source: { parameter: 'filter[platform_id]' },
    });
  });

  it('names a list field of identifiers by the body list and its items', () => {
    expect(restItem(item('ids', 'ids: too many'), 'list')).toMatchObject({ source: { pointer: '/data' } });
    expect(restItem(item('ids.3', 'ids.3: malformed'), 'list')).toMatchObject({ source: { pointer: '/data/3/id' } });
    expect(restItem(item('1.id', '1.id: malformed'), 'list')).toMatchObject({ source: { pointer: '/data/1/id' } });
  });
});

describe('restItem: a multipart form', () => {
  it('names the file part by /file and the other fields as attributes', () => {
    expect(restItem(item('file', 'the file is empty'), 'form')).toMatchObject({ source: { pointer: '/file' } });
    expect(restItem(item('documentType', 'documentType: must be public or private'), 'form')).toMatchObject({
      detail: 'document_type: must be public or private',
      source: { pointer: '/data/attributes/document_type' },
    });
  });
});
