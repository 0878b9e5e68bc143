import crypto from 'node:crypto'

/**
 * `length` random characters of a 32-character alphabet (one byte each, taken modulo 32: unbiased),
 * 5 bits of entropy a character.
 */
export function randomCode(length: number, alphabet: string): string {
  if (alphabet.length !== 32) throw new RangeError('The alphabet must have 32 characters')
  return Array.from(crypto.randomBytes(length), (b) => alphabet[b % 32]).join('')
}
