import { describe, expect, test } from 'vitest'
import { compareReply, jsonKind } from './compare.js'
import { parseCase } from './fixtures.js'

const reply = (body: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, ...body })

describe('compareReply: exact cases', () => {
  test('identical replies match', () => {
    const r = reply({ result: { number: '0x1', hashes: ['0xaa', '0xbb'] } })
    expect(compareReply(r, structuredClone(r), false)).toBeUndefined()
  })

  test('field order does not matter', () => {
    expect(compareReply({ a: 1, b: 2 }, { b: 2, a: 1 }, false)).toBeUndefined()
  })

  test('errors differing only in message pass', () => {
    const expected = reply({ error: { code: -32000, message: 'header not found' } })
    const actual = reply({ error: { code: -32000, message: 'unknown block' } })
    expect(compareReply(expected, actual, false)).toBeUndefined()
  })

  test('errors with data: data must match, message may differ', () => {
    const expected = reply({ error: { code: 3, message: 'execution reverted: user error', data: '0x08c379a0' } })
    expect(compareReply(expected, reply({ error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } }), false)).toBeUndefined()
    expect(compareReply(expected, reply({ error: { code: 3, message: 'execution reverted: user error', data: '0x00' } }), false)).toMatch(
      /^\$\.error\.data: /,
    )
    expect(compareReply(expected, reply({ error: { code: 3, message: 'execution reverted: user error' } }), false)).toMatch(
      /^\$\.error\.data: missing/,
    )
  })

  test('errors with different codes fail', () => {
    const expected = reply({ error: { code: -32602, message: 'invalid argument 0' } })
    const actual = reply({ error: { code: -32000, message: 'invalid argument 0' } })
    expect(compareReply(expected, actual, false)).toBe('$.error.code: expected -32602, got -32000')
  })

  test('nested error objects (eth_simulateV1 calls) drop message too', () => {
    const expected = reply({ result: [{ calls: [{ status: '0x0', error: { code: 3, message: 'execution reverted: Always reverting' } }] }] })
    const same = reply({ result: [{ calls: [{ status: '0x0', error: { code: 3, message: 'reverted' } }] }] })
    const other = reply({ result: [{ calls: [{ status: '0x0', error: { code: -32000, message: 'reverted' } }] }] })
    expect(compareReply(expected, same, false)).toBeUndefined()
    expect(compareReply(expected, other, false)).toBe('$.result[0].calls[0].error.code: expected 3, got -32000')
  })

  test('an error where a result is expected fails, and the other way round', () => {
    const ok = reply({ result: '0x1' })
    const err = reply({ error: { code: -32000, message: 'nope' } })
    expect(compareReply(ok, err, false)).toBe('$: expected a result, got error {"code":-32000,"message":"nope"}')
    expect(compareReply(err, ok, false)).toMatch(/^\$\.error: missing/)
  })

  test('an extra field fails', () => {
    const expected = reply({ result: { hash: '0xaa' } })
    const actual = reply({ result: { hash: '0xaa', extra: '0x0' } })
    expect(compareReply(expected, actual, false)).toBe('$.result.extra: unexpected field (got "0x0")')
  })

  test('a missing field fails, even one whose expected value is null', () => {
    expect(compareReply(reply({ result: { hash: '0xaa', to: null } }), reply({ result: { hash: '0xaa' } }), false)).toBe(
      '$.result.to: missing (expected null)',
    )
  })

  test('numbers compare as numbers', () => {
    expect(compareReply(JSON.parse('{"gas":1.0,"ratio":0.5}'), JSON.parse('{"gas":1,"ratio":5e-1}'), false)).toBeUndefined()
    expect(compareReply({ gas: 1 }, { gas: 2 }, false)).toBe('$.gas: expected 1, got 2')
    expect(compareReply({ gas: 1 }, { gas: '1' }, false)).toBe('$.gas: expected number 1, got string "1"')
  })

  test('strings compare exactly (hex case matters)', () => {
    expect(compareReply({ a: '0xAb' }, { a: '0xab' }, false)).toBe('$.a: expected "0xAb", got "0xab"')
  })

  test('nested arrays compare element by element, length included', () => {
    const expected = { result: [[1, 2], [3, [4, 5]]] }
    expect(compareReply(expected, { result: [[1, 2], [3, [4, 5]]] }, false)).toBeUndefined()
    expect(compareReply(expected, { result: [[1, 2], [3, [4, 6]]] }, false)).toBe('$.result[1][1][1]: expected 5, got 6')
    expect(compareReply(expected, { result: [[1, 2], [3]] }, false)).toBe('$.result[1]: expected 2 elements, got 1')
    expect(compareReply(expected, { result: [[2, 1], [3, [4, 5]]] }, false)).toBe('$.result[0][0]: expected 1, got 2')
  })

  test('null, arrays and objects are different types', () => {
    expect(compareReply({ result: null }, { result: {} }, false)).toBe('$.result: expected null null, got object {}')
    expect(compareReply({ result: [] }, { result: {} }, false)).toMatch(/expected array/)
  })

  test('id and jsonrpc are part of the reply', () => {
    expect(compareReply(reply({ result: '0x1' }), { jsonrpc: '2.0', id: 2, result: '0x1' }, false)).toBe('$.id: expected 1, got 2')
  })

  test('keys that are not identifiers are quoted in the path', () => {
    expect(compareReply({ pending: { '0xAb': { '0': 1 } } }, { pending: { '0xAb': { '0': 2 } } }, false)).toBe(
      '$.pending["0xAb"]["0"]: expected 1, got 2',
    )
  })
})

describe('compareReply: speconly cases', () => {
  test('any result of the same JSON type passes', () => {
    expect(compareReply(reply({ result: { a: 1 } }), reply({ result: { b: [2] } }), true)).toBeUndefined()
    expect(compareReply(reply({ result: [1, 2] }), reply({ result: [] }), true)).toBeUndefined()
    expect(compareReply(reply({ result: '0x1' }), reply({ result: '0xffff' }), true)).toBeUndefined()
    expect(compareReply(reply({ result: 1 }), reply({ result: 2.5 }), true)).toBeUndefined()
    expect(compareReply(reply({ result: true }), reply({ result: false }), true)).toBeUndefined()
    expect(compareReply(reply({ result: null }), reply({ result: null }), true)).toBeUndefined()
  })

  test('a result of another JSON type fails', () => {
    expect(compareReply(reply({ result: {} }), reply({ result: [] }), true)).toMatch(/^\$\.result: expected a result of type object, got array/)
    expect(compareReply(reply({ result: {} }), reply({ result: null }), true)).toMatch(/type object, got null/)
    expect(compareReply(reply({ result: '0x1' }), reply({ result: 1 }), true)).toMatch(/type string, got number/)
  })

  test('both errors pass whatever the code; an error for a result fails and the other way round', () => {
    const err = (code: number) => reply({ error: { code, message: 'x' } })
    expect(compareReply(err(-32000), err(-32602), true)).toBeUndefined()
    expect(compareReply(reply({ result: {} }), err(-32601), true)).toMatch(/^\$: expected a result, got error/)
    expect(compareReply(err(-32000), reply({ result: {} }), true)).toMatch(/expected an error/)
  })

  test('a reply that is not an object fails', () => {
    expect(compareReply(reply({ result: {} }), [reply({ result: {} })], true)).toMatch(/expected a reply object, got array/)
  })
})

describe('fixture parsing', () => {
  test('comments, speconly, several exchanges, blank lines and CRLF', () => {
    const text = '// gets a thing\r\n// speconly: schema only\r\n\r\n>> {"id":1}\r\n<< {"id":1,"result":"0x1"}\n>> {"id":2}\n<< {"id":2,"result":null}\n'
    const c = parseCase('eth_thing', 'gets', text)
    expect(c).toEqual({
      method: 'eth_thing',
      name: 'gets',
      specOnly: true,
      exchanges: [
        { request: { id: 1 }, expected: { id: 1, result: '0x1' } },
        { request: { id: 2 }, expected: { id: 2, result: null } },
      ],
    })
    expect(parseCase('m', 'n', '// plain\n>> {}\n<< {}').specOnly).toBe(false)
  })

  test('format errors throw instead of dropping a case', () => {
    expect(() => parseCase('m', 'n', '<< {}')).toThrow(/reply without a request/)
    expect(() => parseCase('m', 'n', '>> {}')).toThrow(/no reply/)
    expect(() => parseCase('m', 'n', '>> {}\n>> {}\n<< {}')).toThrow(/has no reply/)
    expect(() => parseCase('m', 'n', '>> {\n<< {}')).toThrow(/invalid JSON/)
    expect(() => parseCase('m', 'n', 'garbage')).toThrow(/not a comment/)
    expect(() => parseCase('m', 'n', '// only a comment')).toThrow(/no request/)
  })

  test('jsonKind', () => {
    expect([null, [], {}, '', 0, false].map(jsonKind)).toEqual(['null', 'array', 'object', 'string', 'number', 'boolean'])
  })
})
