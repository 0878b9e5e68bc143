import { describe, expect, test } from 'vitest'
import {
  countScripts,
  cyrillicReadAsLatin,
  dominantScript,
  europeanLanguage,
  hasEuropeanSigns,
  readsAsHangul,
  readsAsLatin,
  scriptFromReadings,
  unreadableScriptReason,
  type ReadingText,
} from '~/ocr/script'

/** A reading of these lines, each read with `confidence`. */
const reading = (text: string, confidence: number): ReadingText => ({ text, confidence, lines: text.split('\n').map((t) => ({ text: t, confidence })) })

describe('countScripts and dominantScript', () => {
  test.each([
    ['Total $12.40', 'Latin'],
    ['합계 금액 12,300원', 'Hangul'],
    ['合计金额 ¥36.50', 'Han'],
    ['ご利用ありがとうございました', 'Japanese'],
    ['ИТОГО 500,00', 'Cyrillic'],
    ['المجموع', 'Arabic'],
    ['รวมทั้งสิ้น', 'Thai'],
    ['कुल राशि', 'Devanagari'],
    ['12/11/2026 40.00', null],
  ])('%s -> %s', (text, script) => {
    expect(dominantScript(text)).toBe(script)
  })

  test('digits and punctuation count for no script', () => {
    expect(countScripts('2026-11-14 12,300 ¥')).toMatchObject({ Latin: 0, Han: 0, Hangul: 0 })
  })
})

describe('hasEuropeanSigns', () => {
  test.each([
    ['Total 12,40 €', true],
    ['Amount EUR 12.40', true],
    ['Gesamtbetrag 26,80', true],
    ['Reçu de paiement', true],
    ['Importe total 40,00', true],
    ['Totale 32,90', true],
    ['Fahrpreis 21,90', true],
    ['Uber\nTrip fare $12.00\nTotal $14.20\nVisa ending 4417', false],
    ['MTA MetroCard\nDate 11/14/2026\nTotal $33.00', false],
  ])('%j -> %s', (text, expected) => {
    expect(hasEuropeanSigns(text)).toBe(expected)
  })
})

describe('readsAsLatin', () => {
  test.each([
    ['a confident page', reading('Trip fare $12.00\nTotal $14.20', 88), true],
    ['three surely read lines of words', { ...reading('Lyft ride\nTrip fare 12.00\nTotal 14.20', 90), confidence: 55 }, true],
    ['English reading a Korean page (confidence 37)', reading('FIFI T EA|\nSE\n2UA| 2026-11-14 08:21\nS53} 24 stat HB', 37), false],
  ])('%s', (_, r, expected) => {
    expect(readsAsLatin(r)).toBe(expected)
  })
})

test('English reading Cyrillic puts capitals inside words; English receipts do not', () => {
  expect(cyrillicReadAsLatin('KaccoBbi# ek\nMOCKOBCKUI MeTPOMNOINTEH\nHata 14.11.2026\nMpoe3snHon bunet 450,00\nCepBucHbIN cbop 50,00')).toBeGreaterThanOrEqual(0.3)
  expect(cyrillicReadAsLatin('UberX trip\nBooking fee 2.00\nCharlieCard value\nTotal charged 14.20\nThanks for riding')).toBeLessThan(0.3)
})

describe('scriptFromReadings', () => {
  const garbage = reading('FIFI T EA|\nSE\n2UA| 2026-11-14 08:21\nS53} 24 stat HB', 37)
  test.each([
    ['English read the page', { first: reading('Uber\nTrip fare $12.00\nTotal $14.20', 90) }, 'Latin'],
    ['a blurred English photo: two receipt words', { first: reading('Tota1 S12.40\nTrip fare 9.1O', 40) }, 'Latin'],
    ['PaddleOCR read Han', { first: garbage, second: reading('滴滴出行\n合计金额 ¥36.50\n日期 2026-11-14', 98) }, 'Han'],
    ['the shapes name Thai', { first: garbage, second: reading('uhngame ngnw\n14/11/2026', 80), shapes: 'Thai' as const }, 'Thai'],
    [
      'Cyrillic read as Latin by both',
      { first: reading('KaccoBbi# ek\nMOCKOBCKUI MeTPOMNOINTEH\nMpoe3snHon bunet\nCepBucHbIN cbop', 48), second: reading('KaccoBbIN YeK\nИTOTO 500,00', 86) },
      'Cyrillic',
    ],
    ['nothing named it: the Korean probe decides', { first: garbage, second: reading('人2026-11-14 08:21\n11,800号\n12,300', 94) }, 'probe'],
    ['a reading named a known service', { first: garbage, namedService: true }, 'Latin'],
    ['PaddleOCR read words surely', { first: garbage, second: reading('Yellow Cab Company\nMetered fare\nSurcharge added\nThank you', 92) }, 'Latin'],
  ])('%s', (_, evidence, expected) => {
    expect(scriptFromReadings(evidence)).toBe(expected)
  })
})

test("PaddleOCR's unsure Han on a Korean page does not make it Chinese (eleventh session)", () => {
  // PaddleOCR's reading of a real Korean card slip (a Baemin delivery's 매출전표): it made Han of a few
  // Hangul boxes, each scored 52-78, and dropped the others.
  const lines: Array<[string, number]> = [
    ['叫叠烈班', 65], ['32833823', 100], ['外异', 52], ['外三  942061*******', 73], ['2022-08-19 18:41:39', 96],
    ['罕是叫', 71], ['是堂  B1AZ01B5DB', 62], ['召否', 78], ['1208765763', 100], ['号  4930801342', 72],
    ['30,909号', 93], ['早  3,091', 53], ['34,000', 99],
  ]
  const paddle: ReadingText = { text: lines.map(([t]) => t).join('\n'), confidence: 80, lines: lines.map(([text, confidence]) => ({ text, confidence })) }
  const english = reading('TEX a |\nSEO 32833823\n2022-08-19 18:41:39', 35)
  expect(scriptFromReadings({ first: english, second: paddle })).toBe('probe')
  // A Chinese page's Han is read surely: there it is Chinese.
  const chinese = reading('深圳市出租汽车专用发票\n国家税务总局\n金额: ￥58.00元', 99)
  expect(scriptFromReadings({ first: english, second: chinese })).toBe('Han')
})

test('the Korean probe must read mostly Hangul, surely', () => {
  expect(readsAsHangul(reading('카카오 택시\n영수증\n합계 금액 12,300원', 92))).toBe(true)
  expect(readsAsHangul(reading('ㅁ646ㅇ16 821\nDatum: 14.11.2026\nFahrpreis 21,90', 45))).toBe(false)
})

test('the refusal names the script and what to send instead', () => {
  expect(unreadableScriptReason('Thai')).toBe(
    "This receipt is in a script we can't read yet (Thai). Upload a receipt in English, a European language, Korean or Chinese, or forward the e-mail receipt.",
  )
})

describe('the one European language a page names', () => {
  // English's reading of a real DB Online-Ticket (the corpus's db-ticket-de-02), as tesseract read it.
  const DB_TICKET_IN_ENGLISH = [
    'Online-Ticket',
    'Summe           66.506 66506 1062€',
    'Betrag ~~ 66,50€     Bank:    Postbank',
    'Dor oben genannte Betrag wird von Ihrom Konto eingezogen. Die Buchung res',
    'Halt            Datum _ Zeit',
  ].join('\n')

  test('a German ticket is read in German alone', () => {
    expect(hasEuropeanSigns(DB_TICKET_IN_ENGLISH)).toBe(true)
    expect(europeanLanguage(DB_TICKET_IN_ENGLISH)).toBe('deu')
  })

  test('words of no one language, or of two as much: all four with English', () => {
    expect(europeanLanguage('Total 12,50 €\nThank you')).toBeNull()
    expect(europeanLanguage('Summe 12,50 €\nMontant 12,50 €')).toBeNull()
  })
})
