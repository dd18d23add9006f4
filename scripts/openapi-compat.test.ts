import { describe, expect, it } from 'vitest';
import { breakingChanges, contractOf, majorOf } from './openapi-compat';

type Doc = {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components?: unknown;
};

/** A small document: one GET with a path and an optional query parameter answering an object, one POST. */
function doc(): Doc {
  return {
    info: { version: '1' },
    paths: {
      '/v1/contract/{network}/{address}': {
        get: {
          summary: 'A contract',
          parameters: [
            { in: 'path', name: 'network', required: true, schema: { type: 'string' } },
            { in: 'path', name: 'address', required: true, schema: { type: 'string' } },
            { in: 'query', name: 'size', required: false, schema: { type: 'integer', maximum: 10 } },
          ],
          responses: {
            200: {
              description: 'the contract',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['address', 'balance'],
                    properties: {
                      address: { type: 'string' },
                      balance: { type: 'integer' },
                      description: { type: 'string', description: 'a field named like a keyword' },
                      tags: { type: 'array', items: { type: 'string' } },
                    },
                  },
                },
              },
            },
            404: { $ref: '#/components/responses/NotFound' },
          },
        },
      },
      '/v1/diff': {
        post: {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['left'],
                  properties: { left: { type: 'string' }, mode: { type: 'string', enum: ['a', 'b'] } },
                },
              },
            },
          },
          responses: {
            200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Diff' } } } },
          },
        },
      },
    },
    components: {
      schemas: { Diff: { type: 'object', required: ['lines'], properties: { lines: { type: 'integer' } } } },
    },
  };
}

/** Schemas are edited freely in these tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
interface ContractGet {
  parameters: Array<Record<string, unknown>>;
  responses: { 200: { content: { 'application/json': { schema: Loose } } } };
}
const responseOf = (d: Doc): Loose =>
  (d.paths['/v1/contract/{network}/{address}']!.get as ContractGet).responses[200].content['application/json']
    .schema;
const paramsOf = (d: Doc) => (d.paths['/v1/contract/{network}/{address}']!.get as ContractGet).parameters;
const bodyOf = (d: Doc): Loose =>
  (d.paths['/v1/diff']!.post as { requestBody: { content: { 'application/json': { schema: Loose } } } })
    .requestBody.content['application/json'].schema;

describe('breakingChanges', () => {
  it('the same document: none', () => {
    expect(breakingChanges(doc(), doc())).toEqual([]);
  });

  it('a removed path is breaking', () => {
    const after = doc();
    delete after.paths['/v1/diff'];
    expect(breakingChanges(doc(), after)).toEqual(['/v1/diff: route removed']);
  });

  it('a removed method is breaking', () => {
    const after = doc();
    after.paths['/v1/diff'] = { get: after.paths['/v1/diff']!.post };
    expect(breakingChanges(doc(), after)).toEqual(['POST /v1/diff: method removed']);
  });

  it('a removed response field is breaking, also in a $ref schema', () => {
    const after = doc();
    delete responseOf(after).properties.balance;
    (after.components as Loose).schemas.Diff.properties = {};
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /v1/contract/{network}/{address}: response 200.balance: removed',
      'POST /v1/diff: response 200.lines: removed',
    ]);
  });

  it('a response field made optional is breaking', () => {
    const after = doc();
    responseOf(after).required = ['address'];
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /v1/contract/{network}/{address}: response 200.balance: no longer always present (made optional)',
    ]);
  });

  it('a parameter made required, a new required parameter and a removed parameter are breaking', () => {
    const required = doc();
    paramsOf(required)[2]!.required = true;
    expect(breakingChanges(doc(), required)).toEqual([
      'GET /v1/contract/{network}/{address}: query parameter size made required',
    ]);
    const added = doc();
    paramsOf(added).push({ in: 'query', name: 'level', required: true, schema: { type: 'integer' } });
    expect(breakingChanges(doc(), added)).toEqual([
      'GET /v1/contract/{network}/{address}: new required query parameter level',
    ]);
    const removed = doc();
    paramsOf(removed).splice(2, 1);
    expect(breakingChanges(doc(), removed)).toEqual([
      'GET /v1/contract/{network}/{address}: query parameter size removed',
    ]);
  });

  it('a changed type is breaking (a response field, a parameter, a request field)', () => {
    const after = doc();
    responseOf(after).properties.balance = { type: 'string' };
    paramsOf(after)[2]!.schema = { type: 'string' };
    bodyOf(after).properties.left = { type: 'integer' };
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /v1/contract/{network}/{address}: query parameter size: type changed from integer to string',
      'GET /v1/contract/{network}/{address}: response 200.balance: type changed from integer to string',
      'POST /v1/diff: request body.left: type changed from string to integer',
    ]);
  });

  it('a response that may now be null is breaking; a request that now accepts null is not', () => {
    const after = doc();
    responseOf(after).properties.address = { type: ['string', 'null'] };
    bodyOf(after).properties.left = { type: ['string', 'null'] };
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /v1/contract/{network}/{address}: response 200.address: type changed from string to string | null',
    ]);
  });

  it('a new required request field and a narrowed request enum are breaking', () => {
    const after = doc();
    bodyOf(after).required = ['left', 'right'];
    bodyOf(after).properties.right = { type: 'string' };
    bodyOf(after).properties.mode.enum = ['a'];
    expect(breakingChanges(doc(), after)).toEqual([
      'POST /v1/diff: request body.mode: no longer accepts "b"',
      'POST /v1/diff: request body.right: new required field',
    ]);
  });

  it('added paths, methods, optional parameters, response fields and response enum values are not breaking', () => {
    const after = doc();
    after.paths['/v1/new'] = { get: { responses: { 200: {} } } };
    after.paths['/v1/diff']!.get = { responses: { 200: {} } };
    paramsOf(after).push({ in: 'query', name: 'level', required: false, schema: { type: 'integer' } });
    responseOf(after).properties.kind = { type: 'string', enum: ['a', 'b', 'c'] };
    responseOf(after).required.push('kind');
    bodyOf(after).properties.extra = { type: 'boolean' };
    bodyOf(after).properties.mode.enum = ['a', 'b', 'c'];
    // prose may change freely
    responseOf(after).properties.address.description = 'reworded';
    (after.paths['/v1/contract/{network}/{address}']!.get as { summary: string }).summary = 'Another summary';
    expect(breakingChanges(doc(), after)).toEqual([]);
  });

  it('compares against a recorded contract as against the document', () => {
    const after = doc();
    delete responseOf(after).properties.description;
    const recorded = JSON.parse(JSON.stringify(contractOf(doc()))) as unknown;
    expect(JSON.stringify(recorded)).not.toContain('a field named like a keyword');
    expect(breakingChanges(recorded, after)).toEqual([
      'GET /v1/contract/{network}/{address}: response 200.description: removed',
    ]);
  });
});

describe('majorOf', () => {
  it('reads the major version', () => {
    expect(majorOf('1')).toBe(1);
    expect(majorOf('2.3.0')).toBe(2);
    expect(majorOf(undefined)).toBe(0);
  });
});
