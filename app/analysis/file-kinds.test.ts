import { describe, expect, it } from 'vitest'
import { ACCEPTED_FILES, oddFileKindOf, oddFileMessage, sniffOddFile } from './file-kinds'

describe('an upload that is neither a photo nor an e-mail (issue 39)', () => {
  it.each([
    ['nothing', Buffer.alloc(0), 'empty'],
    ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj', 'latin1'), 'pdf'],
    ['a text file', Buffer.from('Uber trip, 12 May, $14.20\nthanks\n'), 'text'],
    ['text in UTF-8', Buffer.from('Trajet Bolt — 12,40 €\n'), 'text'],
    ['a saved web page', Buffer.from('<!DOCTYPE html><html><body>Receipt</body></html>'), 'html'],
    ['random bytes', Buffer.from([0, 1, 2, 250, 251, 3, 0, 7]), 'other'],
  ])('%s is %s', (_name, bytes, kind) => {
    expect(sniffOddFile(bytes)).toBe(kind)
  })

  it('names what was sent and what is accepted, after the spec sentence', () => {
    expect(oddFileMessage('pdf')).toBe(`Invalid file type. Please upload an image: this file is a PDF document. ${ACCEPTED_FILES}`)
    expect(oddFileMessage('empty')).toContain('this file is empty')
    expect(oddFileMessage('other')).toBe(`Invalid file type. Please upload an image. ${ACCEPTED_FILES}`)
  })

  it.each([
    [{ type: 'image/jpeg', name: 'r.jpg', size: 10 }, null],
    [{ type: 'application/pdf', name: 'r.pdf', size: 10 }, 'pdf'],
    [{ type: '', name: 'notes.txt', size: 10 }, 'text'],
    [{ type: 'image/png', name: 'r.png', size: 0 }, 'empty'],
    [{ type: 'application/zip', name: 'r.zip', size: 10 }, 'other'],
  ])('in the browser, %j is %s', (file, kind) => {
    expect(oddFileKindOf(file)).toBe(kind)
  })
})
