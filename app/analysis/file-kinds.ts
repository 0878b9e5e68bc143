/**
 * Pure (issue 39): an upload that is neither a photo nor an e-mail, named for the user. The spec's
 * "Invalid file type. Please upload an image" says what is wrong, not what was sent or what would
 * do; a PDF, a text file or an empty file now gets both. Plain file: the capture step says the same
 * before uploading, from the file's type and name.
 */

export type OddFileKind = 'empty' | 'pdf' | 'text' | 'html' | 'other'

/** What ReCircle reads: a picture of the receipt, or the receipt e-mail itself. */
export const ACCEPTED_FILES =
  'We accept a photo or screenshot of the receipt (JPEG, PNG, WebP or HEIC), or the receipt e-mail saved as an .eml file.'

/** Spec 1 §5, kept first so the message still says what the spec says. */
const SPEC_INVALID_TYPE = 'Invalid file type. Please upload an image'

const SENT: Record<Exclude<OddFileKind, 'other'>, string> = {
  empty: 'this file is empty (0 bytes)',
  pdf: 'this file is a PDF document',
  text: 'this file is plain text',
  html: 'this file is a web page (HTML); to send a receipt e-mail, save the e-mail itself as an .eml file',
}

export function oddFileMessage(kind: OddFileKind): string {
  if (kind === 'other') return `${SPEC_INVALID_TYPE}. ${ACCEPTED_FILES}`
  return `${SPEC_INVALID_TYPE}: ${SENT[kind]}. ${ACCEPTED_FILES}`
}

/** The bytes of an upload that is not an image (magic bytes first, then whether it reads as text). */
export function sniffOddFile(bytes: Uint8Array): OddFileKind {
  if (bytes.length === 0) return 'empty'
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024))
  if (head.startsWith('%PDF-')) return 'pdf'
  if (/^\s*(?:<!doctype html|<html|<head|<body|<meta)/i.test(head.replace(/^\uFEFF/, ''))) return 'html'
  return looksLikeText(bytes.subarray(0, 4096)) ? 'text' : 'other'
}

/** Valid UTF-8 with no control characters besides tab, line breaks and form feed. */
function looksLikeText(sample: Uint8Array): boolean {
  let text: string
  try {
    // A sample cut in the middle of a character is still text: drop a partial last character.
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample.length === 4096 ? trimPartial(sample) : sample)
  } catch {
    return false
  }
  return !/[\x00-\x08\x0b\x0e-\x1f\x7f]/.test(text)
}

function trimPartial(sample: Uint8Array): Uint8Array {
  let end = sample.length
  while (end > sample.length - 4 && end > 0 && (sample[end - 1] & 0xc0) === 0x80) end--
  if (end > 0 && sample[end - 1] >= 0xc0) end--
  return sample.subarray(0, end)
}

/** The same judgement in the browser, from what the file says it is (the server checks the bytes). */
export function oddFileKindOf(file: { type: string; name: string; size: number }): OddFileKind | null {
  if (file.size === 0) return 'empty'
  if (file.type.startsWith('image/')) return null
  if (file.type === 'application/pdf' || /\.pdf$/i.test(file.name)) return 'pdf'
  if (file.type === 'text/html' || /\.html?$/i.test(file.name)) return 'html'
  if (file.type.startsWith('text/') || /\.(?:txt|csv|md)$/i.test(file.name)) return 'text'
  return 'other'
}
