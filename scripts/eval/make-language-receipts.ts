/**
 * Receipts in other languages and scripts (issue 37), rendered as clean screenshots or mild photos:
 *   tsx scripts/eval/make-language-receipts.ts OUT [--width 720] [--photo]
 * German, French, Spanish and Italian rail tickets (Latin script, read with the European model),
 * a Korean taxi receipt and a Chinese one (read with `kor` / `chi_sim`), and receipts in scripts
 * ReCircle cannot read yet (Thai, Arabic, Russian, Hindi, Japanese): their analysis must say so.
 * Writes OUT/truth.json with `language` and `script` per file; the fields are the printed ones.
 *
 * Fonts: DejaVu (Latin, Cyrillic, Arabic), Nanum (Korean: Debian's fonts-nanum), Droid Sans Fallback
 * (Chinese and Japanese: fonts-droid-fallback), TLWG (Thai: fonts-thai-tlwg), Lohit Devanagari
 * (fonts-lohit-deva). A missing font renders boxes: check `fc-list :lang=ko` first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

export type LanguageReceipt = {
  file: string
  language: string
  /** The script on the page, as app/ocr/script.ts names it. */
  script: string
  font: string
  rtl?: boolean
  lines: Array<[string, string?]>
  truth: { vendor: string | null; category: string | null; totalAmount: number | null; purchaseDate: string | null; expect: 'auto' | 'review' | 'reject'; currency: string }
}

export const LANGUAGE_RECEIPTS: LanguageReceipt[] = [
  {
    file: 'de-db-ticket.png',
    language: 'de',
    script: 'Latin',
    font: 'DejaVu Sans',
    lines: [['Deutsche Bahn'], ['Fahrkarte / Quittung'], ['Datum: 14.11.2026'], ['Berlin Hbf → Leipzig Hbf'], ['Fahrpreis', '21,90 €'], ['Sitzplatzreservierung', '4,90 €'], ['Gesamtbetrag', '26,80 €'], ['enth. MwSt. 7 %', '1,75 €'], ['Zahlung: Kreditkarte']],
    truth: { vendor: 'Deutsche Bahn', category: 'public_transit', totalAmount: 26.8, purchaseDate: '2026-11-14', expect: 'auto', currency: 'EUR' },
  },
  {
    file: 'fr-sncf-billet.png',
    language: 'fr',
    script: 'Latin',
    font: 'DejaVu Sans',
    lines: [['SNCF'], ['Reçu de paiement'], ['Date : 14/11/2026'], ['Paris Gare de Lyon → Lyon Part-Dieu'], ['Billet 2de classe', '49,00 €'], ['Frais de réservation', '2,50 €'], ['Total TTC', '51,50 €'], ['dont TVA 10 %', '4,68 €'], ['Payé par carte bancaire']],
    truth: { vendor: 'SNCF', category: 'public_transit', totalAmount: 51.5, purchaseDate: '2026-11-14', expect: 'auto', currency: 'EUR' },
  },
  {
    file: 'es-renfe-billete.png',
    language: 'es',
    script: 'Latin',
    font: 'DejaVu Sans',
    lines: [['Renfe'], ['Billete y recibo'], ['Fecha: 14/11/2026'], ['Madrid Atocha → Sevilla Santa Justa'], ['Tarifa básica', '38,60 €'], ['Gastos de gestión', '1,40 €'], ['Importe total', '40,00 €'], ['IVA incluido (10 %)', '3,64 €'], ['Pagado con tarjeta']],
    truth: { vendor: 'Renfe', category: 'public_transit', totalAmount: 40, purchaseDate: '2026-11-14', expect: 'auto', currency: 'EUR' },
  },
  {
    file: 'it-trenitalia-biglietto.png',
    language: 'it',
    script: 'Latin',
    font: 'DejaVu Sans',
    lines: [['Trenitalia'], ['Biglietto e ricevuta'], ['Data: 14/11/2026'], ['Roma Termini → Firenze S.M.N.'], ['Tariffa base', '29,90 €'], ['Supplemento', '3,00 €'], ['Totale', '32,90 €'], ['di cui IVA 10 %', '2,99 €'], ['Pagato con carta di credito']],
    truth: { vendor: 'Trenitalia', category: 'public_transit', totalAmount: 32.9, purchaseDate: '2026-11-14', expect: 'auto', currency: 'EUR' },
  },
  {
    file: 'ko-taxi-receipt.png',
    language: 'ko',
    script: 'Hangul',
    font: 'NanumGothic',
    lines: [['카카오 T 택시'], ['영수증'], ['일시 2026-11-14 08:21'], ['승차 강남역  하차 서울역'], ['운임 요금', '11,800원'], ['호출 요금', '500원'], ['합계 금액', '12,300원'], ['카드 결제 승인']],
    truth: { vendor: 'Kakao T', category: 'ride_share', totalAmount: 12300, purchaseDate: '2026-11-14', expect: 'auto', currency: 'KRW' },
  },
  {
    file: 'zh-taxi-receipt.png',
    language: 'zh',
    script: 'Han',
    font: 'Droid Sans Fallback',
    lines: [['滴滴出行'], ['电子发票 行程单'], ['日期 2026-11-14 08:21'], ['上车 北京南站  下车 国贸'], ['里程费', '¥31.00'], ['时长费', '¥5.50'], ['合计金额', '¥36.50'], ['支付方式 微信支付']],
    truth: { vendor: 'DiDi', category: 'ride_share', totalAmount: 36.5, purchaseDate: '2026-11-14', expect: 'auto', currency: 'CNY' },
  },
  {
    file: 'th-receipt.png',
    language: 'th',
    script: 'Thai',
    font: 'Norasi',
    lines: [['ใบเสร็จรับเงิน'], ['แท็กซี่มิเตอร์ กรุงเทพ'], ['วันที่ 14/11/2026'], ['ค่าโดยสาร', '120.00 บาท'], ['ค่าทางด่วน', '50.00 บาท'], ['รวมทั้งสิ้น', '170.00 บาท'], ['ขอบคุณที่ใช้บริการ']],
    truth: { vendor: null, category: null, totalAmount: null, purchaseDate: null, expect: 'reject', currency: 'THB' },
  },
  {
    file: 'ar-receipt.png',
    language: 'ar',
    script: 'Arabic',
    font: 'DejaVu Sans',
    rtl: true,
    lines: [['إيصال دفع'], ['سيارة أجرة المدينة'], ['التاريخ ٢٠٢٦/١١/١٤'], ['الأجرة', '٤٥٫٠٠'], ['رسوم الخدمة', '٥٫٠٠'], ['المجموع', '٥٠٫٠٠'], ['شكرا لاستخدامكم خدمتنا']],
    truth: { vendor: null, category: null, totalAmount: null, purchaseDate: null, expect: 'reject', currency: 'SAR' },
  },
  {
    file: 'ru-receipt.png',
    language: 'ru',
    script: 'Cyrillic',
    font: 'DejaVu Sans',
    lines: [['Кассовый чек'], ['Московский метрополитен'], ['Дата 14.11.2026'], ['Проездной билет', '450,00 ₽'], ['Сервисный сбор', '50,00 ₽'], ['ИТОГО', '500,00 ₽'], ['Спасибо за покупку']],
    truth: { vendor: null, category: null, totalAmount: null, purchaseDate: null, expect: 'reject', currency: 'RUB' },
  },
  {
    file: 'hi-receipt.png',
    language: 'hi',
    script: 'Devanagari',
    font: 'Lohit Devanagari',
    lines: [['रसीद'], ['दिल्ली मेट्रो रेल निगम'], ['दिनांक 14/11/2026'], ['यात्रा किराया', '₹ 60.00'], ['सेवा शुल्क', '₹ 10.00'], ['कुल राशि', '₹ 70.00'], ['धन्यवाद आपकी यात्रा शुभ हो']],
    truth: { vendor: null, category: null, totalAmount: null, purchaseDate: null, expect: 'reject', currency: 'INR' },
  },
  {
    file: 'ja-taxi-receipt.png',
    language: 'ja',
    script: 'Japanese',
    font: 'Droid Sans Fallback',
    lines: [['領収書'], ['東京タクシー株式会社'], ['日付 2026年11月14日'], ['運賃', '¥2,300'], ['迎車料金', '¥300'], ['合計', '¥2,600'], ['ご利用ありがとうございました']],
    truth: { vendor: null, category: null, totalAmount: null, purchaseDate: null, expect: 'reject', currency: 'JPY' },
  },
]

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** One receipt as a light screenshot `width` px wide (text ~ width/24 px), or a mild photo of it. */
export async function renderLanguageReceipt(r: LanguageReceipt, o: { width?: number; photo?: boolean } = {}): Promise<Buffer> {
  const width = o.width ?? 720
  const size = Math.round(width / 24)
  const pad = Math.round(width / 14)
  const step = Math.round(size * 1.7)
  const rows = r.lines.map(([label, amount], i) => {
    const y = pad + size + i * step
    const first = i === 0 ? ` font-size="${Math.round(size * 1.4)}" font-weight="bold"` : ` font-size="${size}"`
    // Right-to-left pages: labels from the right edge, amounts on the left.
    // (In an rtl run, text-anchor start is its right end.)
    const labelAt = r.rtl ? `x="${width - pad}"` : `x="${pad}"`
    const amountAt = r.rtl ? `x="${pad}"` : `x="${width - pad}" text-anchor="end"`
    return `<text ${labelAt} y="${y}"${first}${r.rtl ? ' direction="rtl"' : ''}>${escape(label)}</text>${amount ? `<text ${amountAt} y="${y}" font-size="${size}">${escape(amount)}</text>` : ''}`
  })
  const height = pad * 2 + size + (r.lines.length - 1) * step + Math.round(size * 0.6)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g font-family="${r.font}" fill="#111">${rows.join('')}</g></svg>`
  const page = sharp(Buffer.from(svg))
  if (!o.photo) return page.png({ compressionLevel: 9, palette: true }).toBuffer()
  // A mild photo: on a table, a degree and a half off, a little blur, JPEG.
  const png = await page.png().toBuffer()
  return sharp(png)
    .extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#6b5a48' })
    .rotate(1.5, { background: '#6b5a48' })
    .blur(0.6)
    .jpeg({ quality: 80 })
    .toBuffer()
}

async function main() {
  const out = process.argv[2]
  if (!out || out.startsWith('--')) throw new Error('usage: tsx scripts/eval/make-language-receipts.ts OUT [--width 720] [--photo]')
  const i = process.argv.indexOf('--width')
  const width = i >= 0 ? Number(process.argv[i + 1]) : 720
  const photo = process.argv.includes('--photo')
  fs.mkdirSync(out, { recursive: true })
  const truth = []
  for (const r of LANGUAGE_RECEIPTS) {
    const file = photo ? r.file.replace(/\.png$/, '.jpg') : r.file
    fs.writeFileSync(path.join(out, file), await renderLanguageReceipt(r, { width, photo }))
    truth.push({ file, ...r.truth, language: r.language, script: r.script, kind: 'photo', render: { width, photo, font: r.font, hard: false } })
  }
  fs.writeFileSync(path.join(out, 'truth.json'), JSON.stringify(truth, null, 1))
  console.log(`${truth.length} receipts in ${out}`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
