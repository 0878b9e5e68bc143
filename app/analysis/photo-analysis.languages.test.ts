/**
 * Issue 37: receipts in other languages and scripts, through analyzeReceipt with the real tesseract
 * workers (the fixtures are 520 px renders: tests/fixtures/receipts/lang-*.png, made by
 * scripts/eval/make-language-receipts.ts), and long pages read piece by piece.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analyzeReceipt, joinReadings, readInBands, type SecondReader } from '~/analysis/photo-analysis.server'
import { closeLanguagePools, closeOcrPool, getOcrPool, languageOcr, loadedLanguages, MAX_LANGUAGE_POOLS, type OcrFn, type OcrLanguage, type OcrResult } from '~/ocr/tesseract.server'

const fixture = (name: string) => fs.readFileSync(path.resolve('tests/fixtures/receipts', name))
const now = new Date('2026-11-15T12:00:00Z')

/** English's reading of the page with its dated lines left out, as if English had misread them: its reading is then not enough. */
const englishWithoutDate: OcrFn = async (image, o) => {
  const r = await getOcrPool().recognize(image, o)
  const lines = r.lines.filter((l) => !/\d{2}\.\d{2}\.\d{4}/.test(l.text))
  return { ...r, lines, text: lines.map((l) => l.text).join('\n') }
}

/** The shared language readers, each call noted. */
function spiedLanguages() {
  const asked: OcrLanguage[] = []
  return { asked, languageOcr: (l: OcrLanguage): OcrFn => (asked.push(l), languageOcr(l)) }
}

// Test files share a process (vitest.config.ts, isolate: false): another file may have left a
// language pool alive, so each file here starts with none.
beforeAll(async () => {
  await closeLanguagePools()
})

afterAll(async () => {
  await closeOcrPool()
})

describe('the language is chosen from the page', () => {
  test('an English receipt is read in English alone: no other language worker is started', async () => {
    const spy = spiedLanguages()
    const a = await analyzeReceipt(fixture('dev-015-bird.jpg'), { secondReader: null, languageOcr: spy.languageOcr })
    expect(a.ocrLanguage).toBe('eng')
    expect(spy.asked).toEqual([])
    expect(loadedLanguages()).toEqual([])
  })

  test('a German ticket English reads in full is decided in English: no other language worker starts', async () => {
    const spy = spiedLanguages()
    const a = await analyzeReceipt(fixture('lang-de-db.png'), { secondReader: null, languageOcr: spy.languageOcr, now })
    expect(spy.asked).toEqual([])
    expect(a).toMatchObject({ ocrLanguage: 'eng', storeName: 'Deutsche Bahn', totalAmount: 26.8, purchaseDate: '2026-11-14' })
  })

  test('a German ticket whose date English missed (€, Gesamtbetrag) is read again in German alone', async () => {
    const spy = spiedLanguages()
    const a = await analyzeReceipt(fixture('lang-de-db.png'), { secondReader: null, languageOcr: spy.languageOcr, now, ocr: englishWithoutDate })
    expect(spy.asked).toEqual(['deu'])
    expect(a).toMatchObject({ ocrLanguage: 'deu', storeName: 'Deutsche Bahn', totalAmount: 26.8, purchaseDate: '2026-11-14' })
    expect(a.ocrText).toContain('Gesamtbetrag')
  })

  test('a Korean taxi receipt: English makes no sense of it, the Korean probe reads Hangul', async () => {
    const a = await analyzeReceipt(fixture('lang-ko-taxi.png'), { secondReader: null, now })
    expect(a.ocrLanguage).toBe('kor')
    expect(a.ocrText).toMatch(/영수증/)
    expect(a.ocrText).toMatch(/12,300/)
    expect(a.unreadableScript).toBeUndefined()
  })

  test("a Chinese page PaddleOCR read goes to staff on PaddleOCR's reading, not read again in Chinese", async () => {
    // PaddleOCR's reading of it with its date lost (canned, so the test needs no ONNX engine).
    const paddle: SecondReader = async () => {
      const text = '滴滴出行\n电子发票行程单\n里程费  ¥31.00\n合计金额  ¥36.50'
      return { text, confidence: 98, lines: text.split('\n').map((t) => ({ text: t, confidence: 98, digitConfidence: 97 })) }
    }
    const spy = spiedLanguages()
    const a = await analyzeReceipt(fixture('lang-zh-taxi.png'), { secondReader: paddle, languageOcr: spy.languageOcr, now })
    expect(spy.asked).toEqual([])
    expect(a).toMatchObject({ reader: 'paddleocr', isAcceptable: false, needsManualReview: true, totalAmount: 36.5, purchaseDate: null })
    expect(a.ocrText).toMatch(/合计金额/)
  })

  test('a Chinese page PaddleOCR read with no total and no date is not read turned: its reading decides', async () => {
    const paddle: SecondReader = async () => {
      const text = '滴滴出行\n电子发票行程单\n上车北京南站下车国贸'
      return { text, confidence: 98, lines: text.split('\n').map((t) => ({ text: t, confidence: 98, digitConfidence: null })) }
    }
    // English's garbage for a page it cannot read (canned): reason enough, before, to read the photo turned three ways.
    let readings = 0
    const ocr: OcrFn = async () => {
      readings++
      return { text: 'a5 ;~ ik', confidence: 21, lines: [{ text: 'a5 ;~ ik', confidence: 21 }] }
    }
    const a = await analyzeReceipt(fixture('lang-zh-taxi.png'), { ocr, secondReader: paddle, languageOcr: spiedLanguages().languageOcr, now })
    expect(a).toMatchObject({ reader: 'paddleocr', isAcceptable: false })
    expect(readings).toBe(1)
  })

  test('a Chinese ticket PaddleOCR reads well enough to decide alone is not read again in Chinese', async () => {
    // A China Railway ticket as PaddleOCR reads one (the corpus's cr-ticket-cn-04, its date moved to this week).
    const paddle: SecondReader = async () => {
      const text = '36G071818  检票口6B\n宁波站  G7532  上海虹桥站\nNingbo  Shanghaihongqiao\n2026年11月14日08:33开  05车无座\n￥144.0元  网  二等座\n限乘当日当次车\n中国铁路祝您旅途愉快'
      return { text, confidence: 95, lines: text.split('\n').map((t) => ({ text: t, confidence: 95, digitConfidence: 99 })) }
    }
    const spy = spiedLanguages()
    const a = await analyzeReceipt(fixture('lang-zh-taxi.png'), { secondReader: paddle, languageOcr: spy.languageOcr, now })
    expect(spy.asked).toEqual([])
    expect(a).toMatchObject({ reader: 'paddleocr', isAcceptable: true, totalAmount: 144, purchaseDate: '2026-11-14' })
    // English's garbage is no second reading of a Chinese page.
    expect(a.otherReading ?? null).toBeNull()
  })

  test('a Thai receipt is refused with a reason that names the script, neither approved nor sent to staff', async () => {
    const a = await analyzeReceipt(fixture('lang-th.png'), { secondReader: null, now })
    expect(a).toMatchObject({
      unreadableScript: 'Thai',
      isAcceptable: false,
      needsManualReview: false,
      isValid: false,
      totalAmount: null,
      purchaseDate: null,
      storeName: null,
      reasons: ["This receipt is in a script we can't read yet (Thai). Upload a receipt in English, a European language, Korean or Chinese, or forward the e-mail receipt."],
    })
  })

  test('a language worker that fails leaves English reading the page', async () => {
    const broken = (): OcrFn => async () => {
      throw new Error('no such language data')
    }
    let asked = 0
    const a = await analyzeReceipt(fixture('lang-de-db.png'), { secondReader: null, languageOcr: () => (asked++, broken()), now, ocr: englishWithoutDate })
    expect(asked).toBe(1)
    expect(a).toMatchObject({ ocrLanguage: 'eng', storeName: 'Deutsche Bahn', totalAmount: 26.8, purchaseDate: null })
  })

  test('the other languages stay within their limit of pools', () => {
    expect(loadedLanguages().length).toBeLessThanOrEqual(MAX_LANGUAGE_POOLS)
  })
})

describe('a long page read piece by piece (issue 37)', () => {
  const page = (text: string, confidence = 90): OcrResult => ({ text, confidence, lines: text.split('\n').map((t) => ({ text: t, confidence })) })
  const pieces = ['Uber\nTotal $12.40', 'Invite your friends', 'Rate your trip', 'Uber · Help · Privacy'].map((t) => Buffer.from(t))
  const reader = (read: string[]): OcrFn => async (image) => {
    read.push(image.toString())
    return page(image.toString())
  }

  test('the top, the pieces under it and the footer, four at most, joined in page order', async () => {
    const read: string[] = []
    const five = [...pieces.slice(0, 3), Buffer.from('Terms of use'), pieces[3]]
    const r = await readInBands(five, reader(read))
    // The footer second (the brand may be named only there), then down from the top: a real Uber
    // trip summary prints "This is not a payment receipt" under its total, so reading never stops
    // once the service, total and date are read.
    expect(read).toEqual(['Uber\nTotal $12.40', 'Uber · Help · Privacy', 'Invite your friends', 'Rate your trip'])
    expect(r.text).toBe('Uber\nTotal $12.40\nInvite your friends\nRate your trip\nUber · Help · Privacy')
  })

  test('a page of two pieces is read whole', async () => {
    const read: string[] = []
    await readInBands([pieces[0]!, pieces[3]!], reader(read))
    expect(read).toEqual(['Uber\nTotal $12.40', 'Uber · Help · Privacy'])
  })

  test('joined readings weigh each piece by the text it read', () => {
    expect(joinReadings([page('abcd', 90), null, page('ab', 60)]).confidence).toBe(80)
  })
})
