import { describe, expect, test } from 'vitest'
import { addsUp, extractReceipt, itemsAddingUp, findPaymentMethod, parseAmounts, parseDates, printedWeekday } from '~/analysis/extract'

describe('parseDates', () => {
  test.each([
    ['11/20/2026', '2026-11-20', 'us'],
    ['11-20-26', '2026-11-20', 'us'],
    ['2026-11-20', '2026-11-20', 'iso'],
    ['2026/1/4', '2026-01-04', 'iso'],
    ['Nov 20, 2026', '2026-11-20', 'written'],
    ['November 20 2026', '2026-11-20', 'written'],
    ['20 Nov 2026', '2026-11-20', 'written'],
    ['Thursday, November 20, 2026', '2026-11-20', 'written'],
    ['Sept. 3rd, 2026', '2026-09-03', 'written'],
    ['Jan 4, 2026 at 10:07 AM', '2026-01-04', 'written'],
    ['Trip on Apr 20, 2026', '2026-04-20', 'written'],
    ['20/11/2026', '2026-11-20', 'day-first'],
    // OCR confusions inside a date.
    ['O7/1O/2026', '2026-07-10', 'us'],
    ['Oct 2l, 2026', '2026-10-21', 'written'],
    // A blurred comma read as a full stop.
    ['DATE JUL 7. 2026', '2026-07-07', 'written'],
    ['20260910', '2026-09-10', 'compact'],
    ['20-Nov-2026', '2026-11-20', 'written'],
    ['Nov-20-2026', '2026-11-20', 'written'],
    ['12 de marzo de 2026', '2026-03-12', 'written'],
    ['12. März 2026', '2026-03-12', 'written'],
    ['3 févr. 2026', '2026-02-03', 'written'],
    ['1er août 2026', '2026-08-01', 'written'],
    // The second reader often drops the spaces in a line.
    ['DATE9JUL2025  1732', '2025-07-09', 'written'],
    ['6Sep2026', '2026-09-06', 'written'],
    ['Oct25,2026', '2026-10-25', 'written'],
  ])('%j -> %s', (text, iso, format) => {
    expect(parseDates(text)[0]).toEqual({ iso, format })
  })

  test.each(['13/13/2026', 'Feb 30, 2026', '11:35 AM', 'Store #553', 'Wp on Mar 22.2076', '4.1 mi 18 min', 'Oct 2026', 'Nov 202026', '6Sep2826'])('%j is no date', (text) => {
    expect(parseDates(text)).toEqual([])
  })
})

describe('printedWeekday', () => {
  test.each([
    ['Fri, Nov 20, 2026', 5],
    ['Date: Mon 2026-01-05', 1],
    ['Saturday 7 March 2026', 6],
    ['Mardi 3 mars 2026', 2],
    ['Total 12.40', null],
    ['Mar 3, 2026', null],
  ])('%s -> %s', (text, day) => {
    expect(printedWeekday(text)).toBe(day)
  })
})

describe('parseAmounts', () => {
  test.each([
    ['Total $39.26', [39.26]],
    ['Unleaded 12.53 GAL $56.49', [12.53, 56.49]],
    ['TOTAL CHARGES $1,200.23', [1200.23]],
    ['Total 12,50 EUR', [12.5]],
    ['Total S20.00', [20]],
    ['Base fare $16.3O', [16.3]],
    ['Total $20 42', [20.42]],
    ['Amount $19', [19]],
    ['Pickup 6:50 AM', []],
    ['Store #553', []],
    ['Visa ****5541', []],
    ['Dec 20 26', []],
    ['BALANCE DUE $20.9', []],
    // China Railway tickets print yuan and jiao (PaddleOCR's readings of the corpus's cr-ticket-cn-*).
    ['￥57.0元  网  二等座', [57]],
    ['¥443.5元', [443.5]],
    ['Summe 66,50€ 66,50€ 10,62€', [66.5, 66.5, 10.62]],
  ])('%j -> %j', (text, values) => {
    expect(parseAmounts(text).map((a) => a.value)).toEqual(values)
  })

  test('keeps the lost-decimal and $-as-5 readings as alternatives', () => {
    expect(parseAmounts('Distance $408')[0].alternatives).toEqual([4.08])
    expect(parseAmounts('Total 520.00')[0].alternatives).toEqual([20])
  })
})

test('addsUp: a run of items just above the total', () => {
  expect(addsUp([47, 1.2, 5], 53.2)).toBe(true)
  expect(addsUp([8.03, 4.41, 7.59, 20.03, 1.5], 21.53)).toBe(true)
  expect(addsUp([342.44], 342.44)).toBe(true)
  expect(addsUp([35.32, 3.42], 38.73)).toBe(false)
  expect(addsUp([35.32, 3.42], 38.73, 1)).toBe(true)
  expect(itemsAddingUp([47, 1.2, 5], 53.2)).toBe(3)
  expect(itemsAddingUp([20, 4.99], 4.99)).toBe(1)
  expect(itemsAddingUp([35.32, 3.42], 38.73)).toBe(0)
})

describe('a single item equal to the total', () => {
  const read = (item: string, total: string) =>
    extractReceipt({
      text: '',
      lines: [
        { text: 'Bird', confidence: 95 },
        { text: 'Date: May 6, 2026', confidence: 93 },
        { text: `Unlock fee ${item}`, confidence: 72 },
        { text: `Amount charged ${total}`, confidence: 86 },
        { text: 'Cash', confidence: 95 },
      ],
    })

  test('confirms the total when both copies read cleanly', () => {
    expect(read('$23.51', '$23.51').signals.totalCheck).toBe('sum')
  })

  // Seen on a blurred synthetic photo: '$23.51' twice, read as '$2151' and '$21.51'.
  test.each([
    ['$2151', '$21.51'],
    ['$21.51', '$2151'],
    ['S21.51', '$21.51'],
  ])('is no cross-check when a copy needed a repair (%s / %s)', (item, total) => {
    const r = read(item, total)
    expect(r.totalAmount).toBe(21.51)
    expect(r.signals.totalCheck).not.toBe('sum')
  })

  test('two items adding up still confirm a repaired total', () => {
    const r = extractReceipt('Bird\nMay 6, 2026\nUnlock $1.00\nMinutes $2251\nTotal $23.51')
    expect(r.totalAmount).toBe(23.51)
    expect(r.signals.totalCheck).toBe('sum')
  })
})

describe('date labels a reader glued to their dates', () => {
  test('the purchase date, not the pass expiry, when the spaces are gone', () => {
    const r = extractReceipt('MARTA\nVALIDUNTIL16JUL2025\nWeekly pass $14.60\nTotal $14.60\nDATE9JUL2025 1732')
    expect(r.purchaseDate).toBe('2025-07-09')
  })

  test('the return date of a rental, not the pick-up', () => {
    const r = extractReceipt('Hertz\nPICKUPDATE9JUL2025\nRETURN12JUL2025\nTotal $80.00')
    expect(r.purchaseDate).toBe('2025-07-12')
  })
})

describe('payment lines and transit cards', () => {
  const check = (item: string) => extractReceipt(`MARTA\nDate 06/14/2026\n${item}\nTotal $14.60\nApple Pay`).signals.totalCheck

  // A transit card's name is what was bought: its line is an item that checks the total.
  test.each(['Breeze card trip $14.60', 'Clipper Card reload $14.60', 'Oyster card top-up $14.60', 'Card fee $14.60'])('%s is an item', (item) => {
    expect(check(item)).toBe('sum')
  })

  // A payment's amount repeats the total: counting it as an item would check the total against itself.
  test.each(['Card $14.60', 'Card •••• 1234 $14.60', 'By card $14.60', 'Card ending 1234 $14.60', 'Card: $14.60', 'Credit card $14.60', 'Visa $14.60', 'Contactless card $14.60', 'Chip card $14.60', 'Debit card •••• 4417 $14.60'])(
    '%s is a payment, not an item',
    (item) => {
      expect(check(item)).not.toBe('sum')
    },
  )
})

describe('extractReceipt', () => {
  test('a clean ride-share receipt', () => {
    const r = extractReceipt(`Uber
Thanks for riding, Emma
Jun 15, 2026
Trip fare      $36.58
Booking fee     $2.68
Total          $39.26
Amex ****5057
Pickup 6:50 AM
17.6 mi 13 min UberX`)
    expect(r).toMatchObject({
      storeName: 'Uber',
      category: 'ride_share',
      totalAmount: 39.26,
      purchaseDate: '2026-06-15',
      paymentMethod: { method: 'American Express', cardLastFour: '5057', isDigital: false },
    })
    expect(r.signals.totalCheck).toBe('sum')
  })

  test('the total line, not the largest amount', () => {
    const r = extractReceipt(`MTA New York City Transit
MetroCard Vending Machine
2026-02-12
30-Day Unlimited $132.00
Previous balance $150.00
TOTAL $132.00
Visa ending in 1392`)
    expect(r.totalAmount).toBe(132)
  })

  test('subtotal + tax add up to the total', () => {
    const r = extractReceipt(`Curb
Taxi receipt
03/14/2026
Fare $18.40
Tolls $2.00
Subtotal $20.40
Tax $1.63
Amount paid $22.03
Apple Pay ending in 1111`)
    expect(r).toMatchObject({ storeName: 'Curb', totalAmount: 22.03, purchaseDate: '2026-03-14' })
    expect(r.signals.totalCheck).toBe('sum')
    expect(r.paymentMethod).toEqual({ method: 'Apple Pay', cardLastFour: '1111', isDigital: true })
  })

  test('messy OCR from a skewed photo', () => {
    const r = extractReceipt({
      text: '',
      lines: [
        { text: 'zlipcar', confidence: 88 },
        { text: 'Trip receipt', confidence: 90 },
        { text: 'Mon, May 11, 2026', confidence: 91 },
        { text: 'Hyundai Kona Electric', confidence: 90 },
        { text: '4 hr reservation      $47.2G', confidence: 80 },
        { text: 'Tota1                 $47.26', confidence: 78 },
        { text: 'Amex ending in 8583', confidence: 92 },
      ],
    })
    expect(r).toMatchObject({ storeName: 'Zipcar', category: 'electric_vehicle', totalAmount: 47.26, purchaseDate: '2026-05-11' })
    expect(r.signals.totalLineConfidence).toBe(78)
  })

  test('a blurred total label is found from the amounts adding up', () => {
    const r = extractReceipt(`Waymo One
Trip on Mar 22, 2026
Base fare $16.33
Distance & time $4.09
Beal $20.42
Google Pay ending in 4583`)
    expect(r.totalAmount).toBe(20.42)
    expect(r.signals.totalLabelStrength).toBe(0)
  })

  test('items that do not add up are flagged', () => {
    const r = extractReceipt(`Lyft
Apr 6, 2026
Lyft fare $50.93
Service fee $1.56
Total charged $55.49`)
    expect(r.signals.totalCheck).toBe('mismatch')
  })

  test('a car rental counts as electric only with an EV shown', () => {
    expect(extractReceipt('Hertz\nVehicle: Toyota Camry\n01/04/2026\nTotal $200.23').category).toBeNull()
    expect(extractReceipt('Hertz\nVehicle: Polestar 2\n01/04/2026\nTotal $200.23').category).toBe('electric_vehicle')
  })

  test('rental: the return date is the purchase date', () => {
    const r = extractReceipt('Enterprise\nTesla Model Y\nPickup date 01/02/2026\nReturn date 01/04/2026\nTotal $120.00')
    expect(r.purchaseDate).toBe('2026-01-04')
  })

  test('unknown merchant: the header becomes the store name, no category', () => {
    const r = extractReceipt('Joe\'s Bakery\n05/05/2026\nCroissant $4.50\nTotal $4.50')
    expect(r).toMatchObject({ storeName: "Joe's Bakery", vendor: null, category: null, totalAmount: 4.5 })
  })

  test('pre-owned keywords are reported', () => {
    const r = extractReceipt('GameStop\n11/06/2026\nPRE-OWNED GAME $35.99\nTOTAL $35.99')
    expect(r.signals.preOwnedKeywords).toEqual(['pre-owned'])
    expect(r.signals.vendorKind).toBe('thrift')
  })

  test('an e-mail receipt with the total above its breakdown', () => {
    const r = extractReceipt(`Uber
Total $23.35
November 20, 2026
Trip fare $19.49
Booking fee $3.46
Tolls $0.40
Payments
Amex ••••5057 $23.35`)
    expect(r).toMatchObject({ totalAmount: 23.35, purchaseDate: '2026-11-20' })
    expect(r.signals.totalCheck).toBe('sum')
  })

  test('a promotion line counts as negative', () => {
    const r = extractReceipt('Lyft\n03/02/2026\nLyft fare $18.00\nPromotion -$3.00\nService fee $1.50\nTotal charged $16.50')
    expect(r.totalAmount).toBe(16.5)
    expect(r.signals.totalCheck).toBe('sum')
  })

  test('a euro receipt: day-first dates, a German total label', () => {
    const r = extractReceipt('FREENOW\n05.11.2026 14:20\nFahrpreis 18,40 €\nTrinkgeld 2,00 €\nGesamt 20,40 €')
    expect(r).toMatchObject({ storeName: 'FreeNow', category: 'ride_share', totalAmount: 20.4, purchaseDate: '2026-11-05' })
  })

  test('empty text', () => {
    expect(extractReceipt('')).toMatchObject({ storeName: null, totalAmount: null, purchaseDate: null, category: null })
  })
})

test.each([
  ['Google Pay ****3369', { method: 'Google Pay', cardLastFour: '3369', isDigital: true }],
  ['Visa •••• 7158', { method: 'Visa', cardLastFour: '7158', isDigital: false }],
  ['Mastercard ending in 1731', { method: 'Mastercard', cardLastFour: '1731', isDigital: false }],
  ['CASH', { method: 'Cash', cardLastFour: null, isDigital: false }],
])('payment %j', (text, expected) => {
  expect(findPaymentMethod(text)).toEqual(expected)
})
