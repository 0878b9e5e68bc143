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
})
