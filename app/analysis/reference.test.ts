import { describe, expect, it } from 'vitest'
import { findReferenceNumber } from './reference'

describe('findReferenceNumber', () => {
  it.each([
    ['Trip ID: 8f3a-22c1-9b07', '8F3A22C19B07'],
    ['Order #112-4456789-001', '1124456789001'],
    ['Receipt No. 000482913', '000482913'],
    ['Receipt number: R-2026-00417', 'R202600417'],
    ['Confirmation code: KX7Q2M9', 'KX7Q2M9'],
    ['Booking reference ABC12345', 'ABC12345'],
    ['Reservation #: 9920311', '9920311'],
    ['Ticket no 5561 2209', '5561'],
    ['Transaction ID 7731-0042', '77310042'],
    ['Invoice: INV-88213', 'INV88213'],
    ['Ride # 44810923', '44810923'],
  ])('%s → %s', (line, ref) => {
    expect(findReferenceNumber(`Uber\n${line}\nTotal $12.50`)).toBe(ref)
  })

  it.each([
    ['Store #553'],
    ['Terminal ID: 00418822'],
    ['Trip fare $36.58'],
    ['Ride receipt'],
    ['Order total $23.10'],
    ['Card ending 4242'],
    ['Route 22 bus'],
    ['Phone: 555-123-4567'],
    ['Member #88812345'],
    ['Receipt from Lyft'],
    ['Reference: N/A'],
  ])('finds none in "%s"', (line) => {
    expect(findReferenceNumber(`Lyft\n${line}\nTotal $9.00`)).toBeNull()
  })

  it('reads the same number the same way with dashes, spaces of case changed', () => {
    expect(findReferenceNumber('Trip ID: ab12-cd34')).toBe(findReferenceNumber('TRIP ID AB12CD34'))
  })

  it("reads the purchase's own number in the words real receipts use for it (issue 37)", () => {
    // Readings of the corpus's db-ticket-de-02 and -05, shenzhen-taxi-cn-06, ola-cab-in-01 and irctc-ticket-in-01, excerpts.
    expect(findReferenceNumber('BAHN Online-Ticket\nBetrag 66,50€\nAuftragsnummer: 8OT117')).toBe('8OT117')
    expect(findReferenceNumber('Auftragsnummer:                   EM9L6V')).toBe('EM9L6V')
    // A Chinese invoice's number, not its code (every invoice of the book prints the same code).
    expect(findReferenceNumber('发票代码144032370119\n发票号码12199866\n投诉电话:12328')).toBe('12199866')
    expect(findReferenceNumber('发票代码144032370119')).toBeNull()
    // Ola's ride number, glued to its letters.
    expect(findReferenceNumber('10 Dec, 2018 (0) OLA\nCRN2554661943\nThanks for travelling with us')).toBe('CRN2554661943')
    // Indian Railways' PNR over the payment's transaction number, though the train is on its line.
    expect(findReferenceNumber('Transaction ID: 100006013928357\nPNR No. 8437346246 Train No./Name 12951')).toBe('8437346246')
    // Such a word followed by no number gives none.
    expect(findReferenceNumber('Buchungsnummer ABCDEF')).toBeNull()
  })
})
