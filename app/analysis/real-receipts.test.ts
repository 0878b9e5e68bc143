/**
 * Issue 37: rules for receipts nobody here wrote. Each case is a short excerpt of a real receipt:
 * real receipt e-mails (Uber and Lyft templates from public test fixtures, excerpts only,
 * as html-to-text reads them), or the lines the issue quotes from the held-out real set.
 */
import { describe, expect, it } from 'vitest'
import { extractReceipt, fieldConfidence, hasTotal, parseAmounts, parseDates } from './extract'
import { clockTime, findTripMoment } from './reference'
import { classifyMessage } from './trip-kind'
import { findVendors, INDIA_ONLY, matchVendor, VENDORS } from './vendors'
import { judgeReceipt } from './verdict'
import { ERECEIPT_REASONS, judgeEReceipt } from './email-verdict'
import { agreements, judgeReadings, readingOf, rupeeSignAsDigit } from './readings'

// Lyft ride receipt (2025): no "Total" label; the card line is the amount paid; an advert below.
const LYFT_RIDE = `JULY 3, 2025 AT 9:00 AM
Thanks for riding with Akmal!
100% of tips go to drivers. Add a tip
Lyft fare (7.76mi, 45m 10s) $62.70
Priority Pickup Upgrade $2.51
Black Car Fund Surcharge $1.56
NYC Central Business District Congestion Surcharge $1.50
Credits -$10.00
Credits -$9.08
Visa *1234 $49.19
Pickup 9:00 AM
326 E 4th St, New York, NY
Drop-off 9:45 AM
You earn 5x total points on rides and get up to $120/year in
ride credit by paying with your Chase Sapphire Reserve®
card. Terms apply
Receipt #1111111111111111111`

// Lyft Bike ride (2026): start and end with times, a Lyft Pink saving, "Receipt #".
const LYFT_BIKE = `JUNE 28, 2026 AT 11:27 AM
Thanks for riding with us!
Free unlock$0.00
Ebike ride ($0.27 per min for 8 min) $2.16
NYC Sales Tax$0.19
Venmo account $2.35
Lyft Pink savings
Saved this trip $6.65
Your Trip
E 5 St & Ave CStart
11:27 am
W Broadway & Spring St End
11:35 am
Question about charges?
Receipt # 2234914080696141974`

// Uber trip summary (2025): a completed trip with a Trip ID, but no payment receipt.
const UBER_TRIP_SUMMARY = `May 1, 2025
Thanks for riding, Evan
Total $9.52
Trip fare $6.94
Booking Fee $2.15
Trip ID: 45ca63ba-8126-4c2d-8d6c-ac00da13717a
This is not a payment receipt. It is a trip summary to
acknowledge the completion of the trip.
UberX 1.59 miles | 11 min`

// A real Bolt scooter ride's receipt (Spanish, 2024), as the e-mail reader lays it out: excerpt.
const BOLT_SCOOTER = `   Total: 0.83€
   Jue, 25/04/2024
PABLO, GRACIAS POR VIAJAR CON NOSOTROS
Esperamos que hayas disfrutado del viaje
Total   0.83€
Desbloquear   0.00€
Duración     0.83€
8 min 18 s
Subtotal   0.83€
Importe total cobrado   0.83€
   •••• 9999
Las emisiones de tu viaje en patinete se han neutralizado
Detalles del viaje
Jue, 25/04/2024
   Avenida de Navarra 80     15:25
   Grupo General Urrutia 1   15:33
Patinete   2.44 km • 8 min
Proveedor de servicios Bolt Operations OÜ`

// The same sender's scooter pass purchase: excerpt.
const BOLT_PASS = `Resumen de compra del pase para patinetes
Tu 20 min al día durante 1 mes está activo
Detalles del pase
Nombre 20 min al día durante 1 mes
Fecha de inicio 13 April 2024, 10:43
Fecha fin 13 May 2024, 10:43
Zona Zaragoza
Tarifa 30.00€
Método de pago •••• 9999
Número de factura: e23872a8-4489-4486-9245-8fb880fd15a0`

describe('real e-mail templates', () => {
  it("reads a Bolt scooter ride in Spanish: a scooter_bike trip, its amount charged and its day-first date", () => {
    expect(classifyMessage({ subject: 'Purchase confirmation', text: BOLT_SCOOTER }).kind).toBe('trip')
    const fields = extractReceipt(BOLT_SCOOTER, { vendor: matchVendor(['Bolt'])!.vendor })
    expect(fields).toMatchObject({ category: 'scooter_bike', totalAmount: 0.83, currency: 'EUR', purchaseDate: '2024-04-25' })
  })

  it("takes Bolt's scooter pass purchase for no trip", () => {
    expect(classifyMessage({ subject: 'Resumen de compra del pase para patinetes', text: BOLT_PASS }).kind).not.toBe('trip')
  })

  it("reads Lyft's amount paid from the card line, never the advert's $120/year", () => {
    const fields = extractReceipt(LYFT_RIDE)
    expect(fields.totalAmount).toBe(49.19)
    expect(fields.signals.totalCheck).toBe('sum')
    expect(fields.currency).toBe('USD')
    expect(fields.purchaseDate).toBe('2025-07-03')
  })

  it('takes a Lyft Bike ride as a trip (start and end), a scooter_bike ride, paid by Venmo', () => {
    expect(classifyMessage({ subject: 'Your Lyft Bike ride', text: LYFT_BIKE }).kind).toBe('trip')
    const fields = extractReceipt(`Your Lyft Bike ride\n${LYFT_BIKE}`, { vendor: matchVendor(['Lyft'])!.vendor })
    expect(fields.category).toBe('scooter_bike')
    expect(fields.totalAmount).toBe(2.35)
  })

  it("refuses a trip or charge summary that says it is not a payment receipt, by e-mail or photo", () => {
    expect(classifyMessage({ subject: 'Your Thursday evening trip with Uber', text: UBER_TRIP_SUMMARY }).kind).toBe('not_a_payment')
    expect(classifyMessage({ subject: null, text: 'This is your charge summary\nTotal $36.80\nThis is not a payment receipt.' }).kind).toBe('not_a_payment')
    const photo = judgeReceipt(extractReceipt(`Uber\n${UBER_TRIP_SUMMARY}`), 95)
    expect(photo).toMatchObject({ isAcceptable: false, needsManualReview: false })
  })

  it('finds the same minute in a receipt and its tip-added resend', () => {
    const dates = (line: string) => parseDates(line).map((d) => d.iso)
    const first = 'Jul 12, 2026\n3:06 PM\nThanks for riding, Alex\nTotal $20.87'
    const resend = 'Jul 12, 2026\n3:06 PM\nTip\nThanks for tipping, Alex\nTotal $27.87\nReceipt ID # 762c201a'
    expect(findTripMoment(first, dates)).toBe('2026-07-12 15:06')
    expect(findTripMoment(resend, dates)).toBe(findTripMoment(first, dates))
    expect(findTripMoment('JULY 3, 2025 AT 9:00 AM', dates)).toBe('2025-07-03 09:00')
    expect(clockTime('12:37 pm')).toBe('12:37')
    expect(clockTime('12:05 AM')).toBe('00:05')
  })
})

describe('vendors: precise, never a fuzzy guess', () => {
  it("a logo's name beside the date at the top names the service ('14 Mar 2018  OLA'); a short line with a price does not", () => {
    // Tesseract's readings of the corpus's ola-cab-in-05 and ola-cab-in-01 (Ola invoices of 2018), their first lines.
    expect(matchVendor(['14 Mar 2018  OLA', 'CRN1602939414', 'Thanks for travelling with us,'])?.vendor.name).toBe('Ola')
    expect(matchVendor(['10 Dec, 2018                          (0) OLA', 'CRN2554661943'])?.vendor.name).toBe('Ola')
    // 'Bolt' is a word too: on an item's line with its price it names no ride service.
    expect(matchVendor(['Hardware Store', 'Bolt 3 x M8 2.50'])).toBeNull()
  })

  it.each([
    ['EUROCARD is a card brand, not MetroCard', 'ARAL Tankstelle\nEUROCARD\nBetrag 61,20 EUR'],
    ['an MTA fee line on a ride is not MTA', 'Trip fare $37.03\nMTA Congestion Surcharge (Below 60th St) $1.50\nTotal $36.80'],
    ['"Delivery" and "Delivered" are not Deliveroo', 'Delivery fee $2.99\nDelivered to 4 High St'],
    ['the German "Über" on a rail ticket is not Uber', 'Fahrkarte\nHinfahrt Köln Hbf\nÜber Frankfurt (Main) Hbf\nGesamtpreis 86,43 €'],
    ['the same when the reader drops the dots', 'Fahrkarte\nHinfahrt Koln Hbf\nUber Frankfurt (Main) Hbf nach Mannheim\nGesamtpreis 86,43 €'],
    ['"City mobil" is not the fuel brand Mobil', 'Fahrkarte\nCity mobil Ticket der Stadt\nPreis 2,90 EUR'],
    ['"GENERAL PUBLIC" is not Publix', 'STATE TRANSPORT\nBUS TICKET\nGENERAL PUBLIC\nFARE 45.00'],
  ])('%s', (_name, text) => {
    const vendor = matchVendor(text.split('\n'))?.vendor.name ?? null
    expect(['MTA', 'Deliveroo', 'Uber', 'Mobil', 'Publix']).not.toContain(vendor)
  })

  it('a ticket paid with Amazon Pay is no Amazon purchase', () => {
    expect(matchVendor(['IRCTC', 'Indian Railways E-Ticket', 'Paid via Amazon Pay'])?.vendor.name).toBe('Indian Railways')
  })

  it('a misread name still matches when the glyphs are ones readers confuse', () => {
    expect(matchVendor(['Tesia Supercharger'])?.vendor.name).toBe('Tesla')
    expect(matchVendor(['zlipcar'])?.vendor.name).toBe('Zipcar')
  })

  it('a screenshot of an Uber Eats order names "Uber" and its courier: staff look, it is never approved', () => {
    // A real Uber Eats mail as a phone screenshot: the "Uber Eats" logo is an image.
    const fields = extractReceipt('Uber\nTotal $50.54\nJul 16, 2026\nOrder Details\nDelivered by Alex\nRate the courier or restaurant.\nUber Technologies')
    const verdict = judgeReceipt(fields, 95, { now: new Date('2026-07-17T12:00:00Z') })
    expect(verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(verdict.reasons.join(' ')).toMatch(/food or delivery order \("courier"\)/)
  })

  it.each([
    ['a cancellation fee', 'Uber\nNov 20, 2026\nCancellation fee $5.00\nTotal $5.00', /a fee without a trip \("Cancellation fee"\)/],
    ['a weekly summary', 'Lyft\nYour weekly summary\nNov 16 - Nov 22, 2026\nTotal $48.20', /a summary of several trips \("weekly summary"\)/],
    ['a membership', 'Uber\nNov 20, 2026\nUber One membership $9.99\nTotal $9.99', /a membership or subscription \("Uber One membership"\)/],
  ])('a photo of %s goes to staff, like the e-mail reader refuses it', (_name, text, reason) => {
    const verdict = judgeReceipt(extractReceipt(text), 95, { now: new Date('2026-11-23T12:00:00Z') })
    expect(verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(verdict.reasons.join(' ')).toMatch(reason)
  })

  it.each([
    ["a ride that mentions the rider's membership", 'Lyft\nNov 20, 2026\nLyft fare $15.88\nLyft Pink savings -$2.89\nVisa *1234 $12.99'],
    ['an EV rental with a late return fee', 'Hertz\nRental agreement # 88123\nTesla Model 3 electric vehicle\nTime and mileage $155.00\nLate return fee $25.00\nTotal $180.00\nNov 20, 2026'],
    ['a transit pass that renews itself', 'WMATA\nSmarTrip monthly pass\nAuto-renew: On\nTotal $64.00\nNov 20, 2026'],
    ["a transit card's ride counter", 'OMNY\nNov 20, 2026\nFare $2.90\n12 rides this week\nTotal $2.90'],
    ['a ride screenshot with a food advert', 'Uber\nNov 20, 2026\nTrip fare $14.20\nTotal $14.20\nGet 40% off your next Uber Eats order'],
    ['a ride with a fee policy line', 'Lyft\nNov 20, 2026\nPickup 7:48 PM\nA cancellation fee may apply\nVisa *1234 $12.99'],
  ])('%s has no word against it', (_name, text) => {
    expect(extractReceipt(text).signals.notATrip).toBeNull()
  })

  it('a flight receipt names its airline, and is not eligible', () => {
    // A real United e-mail: the logo is an image; its first line and its copyright name the airline.
    const fields = extractReceipt('United Airlines Fri, Jul 11, 2025\nThank you for choosing United.\nTotal Per Passenger 38.69 USD\nCopyright © 2025 United Airlines, Inc. All Rights Reserved')
    expect(fields).toMatchObject({ storeName: 'United Airlines', category: null })
    expect(judgeReceipt(fields, 95, { now: new Date('2025-07-12T12:00:00Z') }).reasons).toContain('Flights are not eligible: only sustainable transport receipts earn B3TR')
  })

  it('a ride to the airport is still the ride: the airline of its terminal raises no doubt', () => {
    // A one-screen screenshot whose logo is an image: the brand and the terminal both near the bottom.
    const text = 'Thanks for riding\nNov 20, 2026 7:48 PM\nTrip fare $41.20\nBooking fee $7.00\nTotal $48.20\nDrop-off 8:12 PM\nSFO Terminal 3 - United Airlines\nUber Technologies'
    const fields = extractReceipt(text)
    expect(fields).toMatchObject({ storeName: 'Uber', category: 'ride_share' })
    expect(judgeReceipt(fields, 95, { now: new Date('2026-11-21T12:00:00Z') }).reasons.join(' ')).not.toMatch(/also names/)
  })

  it('a flight named at the top is a second merchant: a ride service named as prominently goes to staff', () => {
    const text = 'Lyft\nUnited Airlines\nNov 20, 2026\nFlight UA 1234 SFO -> EWR\nAirfare $400.00\nSeat $45.00\nTotal $445.00'
    expect(judgeReceipt(extractReceipt(text), 95, { now: new Date('2026-11-21T12:00:00Z') }).isAcceptable).toBe(false)
  })

  it("a diner's footer that sends riders to a ride service's web address names no ride", () => {
    const text = 'JOES DINER\n2 Eggs  $8.50\nCoffee  $3.00\nTotal  $11.50\n03/14/2026\nRide home safely: www.uber.com'
    expect(extractReceipt(text).vendor).toBeNull()
  })

  it('"Tamil Nadu" is a place, not the fuel brand Tamoil', () => {
    expect(findVendors(['Thanks for riding', 'Chennai, Tamil Nadu 600001', 'Total ₹245.00']).map((f) => f.vendor.name)).not.toContain('Tamoil')
  })

  it('an American Express card is no American Airlines', () => {
    expect(findVendors(['Lyft', 'American Express ••••1234 $20.87']).map((f) => f.vendor.name)).toEqual(['Lyft'])
  })

  it('taxi receipts: by their title, in Korean and Chinese too', () => {
    expect(matchVendor(['서울 택시 영수증', '요금 ₩27,700'])?.vendor.name).toBe('Taxi')
    expect(matchVendor(['北京市出租汽车专用发票', '金额 ¥61.00'])?.vendor.name).toBe('Taxi')
  })
})

describe('amounts and dates the European and Asian way', () => {
  it.each([
    ['Gesamtpreis 86,43 €', 86.43, 'EUR'],
    ['57,75 €', 57.75, 'EUR'],
    ['Summe EUR 1.234,50', 1234.5, 'EUR'],
    ['₩27,700', 27700, 'KRW'],
    ['27,700원', 27700, 'KRW'],
    ['¥61.00', 61, 'CNY'],
    ['Rs. 450.00', 450, 'INR'],
  ])('%s -> %s %s', (text, value, code) => {
    const [amount] = parseAmounts(text)
    expect(amount).toMatchObject({ value, code })
  })

  it('reads a German total and records the currency', () => {
    const fields = extractReceipt('Fahrkarte\nICE 123\nGesamtpreis 86,43 €\nBuchungsdatum 01.03.2020')
    expect(fields).toMatchObject({ totalAmount: 86.43, currency: 'EUR' })
  })

  it.each([
    ['02.03.2020', '2020-03-02'],
    ['07.04.2014:38', '2020-04-07'],
    // A time glued to the day or the year (PaddleOCR on the corpus's Biedronka receipt, a DB ticket, a bookshop's receipt).
    ['2020-02-2713:32  165579', '2020-02-27'],
    ['Online-Ticketserfolgteam 16.02.201616:09UhrDBFern', '2016-02-16'],
    ['Date:  25/12/20188:13:39 PM', '2018-12-25'],
    // A one-digit month leaves the day's digits in doubt: no date rather than a guess.
    ['2026-1-108:21', undefined],
  ])('%s is %s', (text, iso) => {
    expect(parseDates(text)[0]?.iso).toBe(iso)
  })

  it('a receipt marked EURO reads 05/11/2026 day first', () => {
    expect(extractReceipt('TOTAL EURO 12,50\n05/11/2026').purchaseDate).toBe('2026-11-05')
  })

  it("ignores a card's expiry date", () => {
    expect(extractReceipt('Taxi\nGültig bis 12/2027\nDatum 14.03.2026\nBetrag 23,40 EUR').purchaseDate).toBe('2026-03-14')
  })

  it('a ticket: the travel date counts, not the booking date printed above or below it', () => {
    const ticket = extractReceipt('Online-Ticket\nBuchungsdatum: 20.02.2020\nHinfahrt am 02.03.2020\nGesamtpreis 86,43 €')
    expect(ticket.purchaseDate).toBe('2020-03-02')
    expect(ticket.signals.travelDate).toBe(true)
    const journey = extractReceipt('IRCTC E-Ticket\nDate of Journey: 15-Apr-2026\nBooking Date: 02-Apr-2026\nTotal Fare ₹ 1,245.00')
    expect(journey.purchaseDate).toBe('2026-04-15')
  })
})

describe('a ticket for a trip still ahead', () => {
  it('waits for the trip: "come back after your trip"', async () => {
    const { checkPurchaseDate } = await import('~/receipts/age-window')
    const now = new Date('2026-03-01T10:00:00Z')
    const ticket = extractReceipt('Online-Ticket\nBuchungsdatum: 20.02.2026\nHinfahrt am 02.03.2026\nGesamtpreis 86,43 €')
    expect(checkPurchaseDate(ticket.purchaseDate!, now, 14, { travel: ticket.signals.travelDate })).toEqual({
      ok: false,
      code: 'future',
      reason: 'Your trip on March 2, 2026 is still ahead. Come back after your trip: the ticket earns once you have travelled.',
    })
    // A receipt of a purchase dated tomorrow (time zones) is still fine; the trip, once taken, too.
    expect(checkPurchaseDate('2026-03-02', now, 14)).toEqual({ ok: true })
    expect(checkPurchaseDate(ticket.purchaseDate!, new Date('2026-03-03T10:00:00Z'), 14, { travel: true })).toEqual({ ok: true })
  })
})

describe('a long screenshot whose logo is an image', () => {
  it('finds the brand in the footer (real Uber and Lyft footers)', () => {
    const body = ['Thanks for riding, Evan', 'We hope you enjoyed your ride this evening.', 'Total $9.52', 'Trip fare $6.94', 'Booking Fee $2.15', 'Promotion -$0.38', 'You rode with Amanuel', 'License Plate: 53344F2', 'Report lost item', 'Contact support', 'My trips', 'Forgot password', 'Privacy', 'Terms']
    expect(matchVendor([...body, 'Uber Technologies', '1725 3rd Street,', 'San Francisco,', 'California'])).toMatchObject({ vendor: { name: 'Uber' }, exact: true })
    expect(matchVendor([...body, 'Question about charges?', 'Receipt # 2234914080696141974', '© 2026 Lyft, Inc.', '548 Market St., P.O. Box 68514', 'San Francisco, CA 94104'])?.score).toBeGreaterThanOrEqual(0.9)
  })
})

describe('Korean and Chinese receipts', () => {
  it.each([
    ['일시 2026년 3월 2일 14:05', '2026-03-02'],
    ['日期 2026年3月2日', '2026-03-02'],
    ['2026.03.02 14:05', '2026-03-02'],
  ])('%s is %s', (text, iso) => {
    expect(parseDates(text)[0]?.iso).toBe(iso)
  })

  it("a China Railway ticket's date whose day sign tesseract read as a digit, before the time", () => {
    // Tesseract's Chinese readings of the corpus's cr-ticket-cn-01 and -02: '日' read as '8' and '6'.
    expect(parseDates('2019年04月218 18:41开     08寺06F引')[0]?.iso).toBe('2019-04-21')
    expect(parseDates('2015年07月106 12:21开、。 11车13AS')[0]?.iso).toBe('2015-07-10')
    // A third digit with more text after it is no sign, nor one glued to the time; at the end of the
    // line it is (decision 118: "日期:2023年12月148" on a real Shenzhen taxi invoice).
    expect(parseDates('2019年04月218 号')).toEqual([])
    expect(parseDates('2019年04月218')[0]?.iso).toBe('2019-04-21')
    expect(parseDates('2026年3月214:05')).toEqual([])
    expect(parseDates('2026年3月21 14:05')[0]?.iso).toBe('2026-03-21')
  })

  it('reads a taxi receipt: its title, total and date', () => {
    const fields = extractReceipt('서울 택시 영수증\n일시 2026년 3월 2일 14:05\n합계 ₩27,700')
    expect(fields).toMatchObject({ storeName: 'Taxi', category: 'ride_share', totalAmount: 27700, currency: 'KRW', purchaseDate: '2026-03-02' })
  })

  // A China Railway paper ticket (a PaddleOCR sample photo, Apache-2.0), as PaddleOCR reads it: the
  // price has no word for it, the operator's name is not printed, the fixed clause is.
  const CR_TICKET = '杭州东售\n2013年07月07日13:39开  06车12B号\n杭州东  G7512次  上海虹桥\n￥73.00元\n限乘当日当次车\n检票口16'

  it('reads a China Railway ticket: its one priced amount, and the clause every such ticket prints', () => {
    const fields = extractReceipt(CR_TICKET)
    expect(fields).toMatchObject({ storeName: 'China Railway', category: 'public_transit', totalAmount: 73, currency: 'CNY', purchaseDate: '2013-07-07' })
    // The page's one amount, on a transit ticket: its fare (decision 115).
    expect(fields.signals).toMatchObject({ totalLabel: 'price', priceAlone: true })
    expect(judgeReceipt(fields, 95, { now: new Date('2013-07-08T12:00:00Z') }).reasons).not.toContain('No clear total line was found')
  })

  it('takes no lone priced amount where there are two, and none from a sender\'s mail', () => {
    expect(extractReceipt('杭州东  G7512次\n￥73.00元\n￥5.00元\n限乘当日当次车').totalAmount).toBeNull()
    const offer = extractReceipt('Uber\nNovember 22, 2026\nUber One members save on every ride\nJoin for $9.99')
    expect(offer.totalAmount).toBe(9.99)
    expect(judgeEReceipt({ ...offer, category: 'ride_share' }, { signedSentAt: '2026-11-22T20:00:00.000Z', recipientSigned: true }).reasons).toContain(ERECEIPT_REASONS.noTotal)
  })

  it("an unknown merchant is not named after a greeting ('Thanks for riding…')", () => {
    expect(extractReceipt('Thanks for riding, Alex Rider\nTotal $20.87\nJul 12, 2026').storeName).toBeNull()
  })
})

describe("a field is as sure as its own words (tesseract's word scores)", () => {
  // Tesseract's reading of a real Lyft receipt's screenshot (the corpus's lyft-email-02): the card
  // logo beside the payment line is read as "Lo", the masked card number scored low, the amount
  // itself 96; the date line's icon as "Co".
  const line = (text: string, words: Array<[string, number]>) => ({
    text,
    confidence: Math.round(words.reduce((s, [, c]) => s + c, 0) / words.length),
    digitConfidence: 99,
    words: words.map(([t, c]) => ({ text: t, confidence: c })),
  })
  const lines = [
    line('Co July 15, 2025', [['Co', 0], ['July', 94], ['15,', 96], ['2025', 96]]),
    line('Lyft', [['Lyft', 93]]),
    line('Lyft fare (2.24mi, 18m 33s)                $8.81', [['Lyft', 96], ['fare', 96], ['(2.24mi,', 95], ['18m', 96], ['33s)', 96], ['$8.81', 96]]),
    line('Service Fee                                $3.60', [['Service', 96], ['Fee', 96], ['$3.60', 96]]),
    line('Priority Pickup Upgrade                     $2.89', [['Priority', 96], ['Pickup', 96], ['Upgrade', 96], ['$2.89', 96]]),
    line('Membership                                  -$2.89', [['Membership', 93], ['-$2.89', 96]]),
    line('SF Rideshare Tax                            $0.49', [['SF', 96], ['Rideshare', 96], ['Tax', 96], ['$0.49', 96]]),
    line('Clean Miles Standard Regulatory         $0.09', [['Clean', 96], ['Miles', 96], ['Standard', 96], ['Regulatory', 96], ['$0.09', 96]]),
    line('Lo Visa*1234                       $12.99', [['Lo', 35], ['Visa*1234', 43], ['$12.99', 96]]),
    line('© 2025 Lyft, Inc.', [['©', 90], ['2025', 96], ['Lyft,', 93], ['Inc.', 93]]),
  ]
  const now = new Date('2025-07-16T12:00:00Z')

  it("scores the total by the amount's word and the date by its words, not by the icons beside them", () => {
    const fields = extractReceipt({ text: lines.map((l) => l.text).join('\n'), lines })
    expect(fields).toMatchObject({ storeName: 'Lyft', totalAmount: 12.99, purchaseDate: '2025-07-15' })
    expect(lines[8].confidence).toBeLessThan(60)
    expect(fields.signals.totalLineConfidence).toBe(96)
    expect(fields.signals.dateLineConfidence).toBe(95.3)
    expect(judgeReceipt(fields, 93, { reader: 'tesseract', now })).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('an amount whose own word was read unsurely still doubts', () => {
    const unsure = lines.map((l, i) => (i === 8 ? line('Lo Visa*1234 $12.99', [['Lo', 35], ['Visa*1234', 90], ['$12.99', 60]]) : l))
    const fields = extractReceipt({ text: unsure.map((l) => l.text).join('\n'), lines: unsure })
    expect(fields.signals.totalLineConfidence).toBe(60)
    expect(judgeReceipt(fields, 93, { reader: 'tesseract', now }).reasons).toContain('The total was read with low confidence')
  })

  it("falls back to the line's score where the words do not spell the line, or none were scored", () => {
    const base = { text: 'Total $12.99', confidence: 58 }
    expect(fieldConfidence({ ...base, words: null }, 6, 12)).toBe(58)
    expect(fieldConfidence({ ...base, words: [{ text: 'Total$12.99', confidence: 96 }] }, 6, 12)).toBe(58)
    expect(fieldConfidence({ ...base, words: [{ text: 'Total', confidence: 20 }, { text: '$12.99', confidence: 96 }] }, 6, 12)).toBe(96)
  })

  it("a date's words: their mean, but never more than its least sure word with digits", () => {
    // A stray mark glued to the month (a dark card's edge) costs that word only...
    const stray = { text: '‘November 20, 2026 at 8:14 PM', confidence: 92, words: [['‘November', 70], ['20,', 96], ['2026', 96], ['at', 96], ['8:14', 96], ['PM', 96]].map(([t, c]) => ({ text: t as string, confidence: c as number })) }
    expect(fieldConfidence(stray, 0, 18)).toBe(87.3)
    // ...a day read unsurely costs the date: tesseract's reading of a synthetic hard photo
    // (make-hard-receipts --unseen --harder), the 16th read as "18," at 74, every digit at 98.
    const misread = { text: 'Date: Sep 18, 2026', confidence: 88, words: [['Date:', 92], ['Sep', 92], ['18,', 74], ['2026', 95]].map(([t, c]) => ({ text: t as string, confidence: c as number })) }
    expect(fieldConfidence(misread, 6, 18)).toBe(74)
  })
})

describe('totals and dates of real tickets and printouts', () => {
  it("a DB ticket's total row: the gross amount, not the VAT columns after it", () => {
    // German reading of the corpus's db-ticket-de-02 (a DB Online-Ticket), excerpt.
    const text = ['DB BAHN Online-Ticket', 'Gültigkeit: 30.01.2016 - 31.01.2016', 'Positionen Preis MwSt (D) 19% MwSt D: 7%', 'ICE Fahrkarte 1 66,50€ 66,50€ 10,62€', 'Summe 66,50€ 66,50€ 10,62€', 'Lastschriftzahlung', 'Betrag 66,50€ Bank Postbank'].join('\n')
    expect(extractReceipt(text)).toMatchObject({ storeName: 'Deutsche Bahn', totalAmount: 66.5, currency: 'EUR' })
  })

  it('a credit spent after the total: the amount paid is the total, the credit its cross-check (decision 118)', () => {
    // German reading of the corpus's db-ticket-de-04, excerpt: 67,50 € less a 10 € eCoupon, 57,50 € debited.
    const text = ['BAHN Online-Ticket', 'Gültigkeit: 19.11.2016 - 20.11.2016', 'ICE Fahrkarte 1 67,50€ 67,50€ 10,78€', 'Summe 67,50€ 67,50€ 10,78€', 'Lastschriftzahlung', 'Betrag 57,50€ Bank Postbank', 'Datum 18.11.2016 IBAN DEXXXXXXXXXXXXXXXX111', 'Betrag für angerechnete 10,00€', 'eCoupons', 'Der oben genannte Betrag wird von Ihrem Konto eingezogen.'].join('\n')
    const fields = extractReceipt(text)
    expect(fields).toMatchObject({ storeName: 'Deutsche Bahn', totalAmount: 57.5 })
    expect(fields.signals).toMatchObject({ creditAfterTotal: null, totalCheck: 'sum' })
    // English's reading of the same ticket, its code painted over: "eCoupons" read as "Coupons", beside other columns.
    const english = text.replace('Betrag für angerechnete 10,00€', 'Betrag für angerechnete 10,00€     ultragsnummer: 89FNLF').replace('eCoupons', 'Coupons')
    expect(extractReceipt(english).totalAmount).toBe(57.5)
  })

  it('a credit after the total with no amount paid that it explains: the total stands, staff check it', () => {
    // PaddleOCR's reading of db-ticket-de-04 lost the debit's amount ("Betrag Bank Postbank").
    const text = ['BAHN Online-Ticket', 'Gültigkeit: 19.11.2016 - 20.11.2016', 'ICE Fahrkarte 1 67,50€ 67,50€ 10,78€', 'Summe 67,50€ 67,50€ 10,78€', 'Lastschriftzahlung', 'Betrag Bank Postbank', 'Datum 18.11.2016 IBAN DEXXXXXXXXXXXXXXXX111', 'Betrag für angerechnete 10,00€', 'eCoupons'].join('\n')
    const fields = extractReceipt(text)
    expect(fields).toMatchObject({ totalAmount: 67.5 })
    expect(fields.signals.creditAfterTotal).toBe('angerechnete')
    expect(judgeReceipt(fields, 90, { now: new Date('2016-11-20T12:00:00Z') }).reasons).toContain('A credit was applied after the total ("angerechnete"): staff will check the amount paid')
    expect(extractReceipt(text.replace('angerechnete', 'anger').replace('eCoupons', 'Coupons')).signals.creditAfterTotal).toBe('Coupons')
    // A debit that is not the total less the credit explains nothing.
    expect(extractReceipt(text.replace('Betrag Bank', 'Betrag 55,50€ Bank')).signals.creditAfterTotal).toBe('angerechnete')
    // The same ticket paid in full names no credit.
    expect(extractReceipt(text.replace('Betrag Bank', 'Betrag 67,50€ Bank').split('\nBetrag für')[0]).signals.creditAfterTotal).toBeNull()
  })

  it("a payment's amount is no credit, and items that contradict the total leave it for staff", () => {
    // A card payment above a voucher's word, and a "Betrag" below it: the credit is not 57,50.
    const swapped = extractReceipt(['BAHN Online-Ticket', 'Summe 67,50 €', 'Zahlung per Visa 57,50 €', 'Gutschein', 'Betrag 10,00 €'].join('\n'))
    expect(swapped.totalAmount).toBe(67.5)
    expect(swapped.signals.creditAfterTotal).toBe('Gutschein')
    // An item of 60,00 under a total of 67,50: the page contradicts itself, whatever was paid.
    const contradicted = extractReceipt(['BAHN Online-Ticket', 'ICE Fahrkarte 60,00€', 'Summe 67,50€', 'Betrag 57,50€', 'Gutschein 10,00€'].join('\n'))
    expect(contradicted.totalAmount).toBe(67.5)
    expect(contradicted.signals.creditAfterTotal).toBe('Gutschein')
  })

  it("a DB ticket's items are its rows' prices, not their VAT, and a euro sign read as '6' is put back", () => {
    // English's reading of the corpus's db-ticket-de-05, excerpt: the euro signs of the total row
    // read as '6', and the rules of the column beside the table read as marks.
    const text = ['BAHN Online-Ticket', 'Positionen   Preis   Mwst D: 19%   Mwst D: 7%   Gilltig ab:   22.12.2015', 'ICE Fahrkarte   1   133,00€   133,00€   21,24€', 'Reservierungen   2   9,00€   9,00€   1,44€        —_—', 'Summe   142,006 142,006  22,68€        angenabdnick', 'Lastschrifizahlung', 'Betrag   142,00€   Bank   Postbank'].join('\n')
    const fields = extractReceipt(text)
    expect(fields.signals.itemAmounts).toEqual([133, 9])
    expect(fields).toMatchObject({ totalAmount: 142, currency: 'EUR' })
    expect(fields.signals).toMatchObject({ totalCheck: 'sum', totalRepaired: true })
    expect(parseAmounts('Summe 142,006 142,006 22,68€').map((a) => [a.value, a.repaired])).toEqual([[142, true], [142, true], [22.68, false]])
    // A FreeNow receipt's euro read as a cent sign; no '6' is taken for a euro where the line prints none.
    expect(parseAmounts('Bruttobetrag (inkl. Trinkgeld 16,40 ¢')).toMatchObject([{ value: 16.4, code: 'EUR', repaired: true }])
    expect(parseAmounts('Total 1,006')).toEqual([])
    expect(parseAmounts('Total 1,256 EUR')).toMatchObject([{ value: 1256 }])
  })

  it("a China Railway ticket's price in yuan and jiao", () => {
    // PaddleOCR's reading of the corpus's cr-ticket-cn-01.
    const text = ['C028237', '日照西站  D1692  青岛北站', '2019年04月21日18:41开  08车06F号', '￥57.0元  网  二等座', '限乘当日当次车', '中国铁路祝您旅途愉快'].join('\n')
    expect(extractReceipt(text)).toMatchObject({ storeName: 'China Railway', totalAmount: 57, currency: 'CNY', purchaseDate: '2019-04-21' })
  })

  it("an amount inside a sentence is no item: a Lyft receipt's fees add up to its card charge", () => {
    // Tesseract's reading of the corpus's lyft-email-us-01, excerpt: "$0.30" is part of the fee's wording.
    const text = ['MAY 10, 2022 AT 3:58 PM', 'Lyft XL fare (14.19mi, 41m 34s) $38.68', 'Service Fee, includes a $0.30 Lyft California Driver', '. $2.75', 'Benefits Fee', 'Fuel Surcharge $0.55', 'visa Visa *5020 $41 98'].join('\n')
    expect(extractReceipt(text).signals).toMatchObject({ totalCheck: 'sum', itemAmounts: [38.68, 2.75, 0.55] })
  })

  it('PLN is a currency code, before or after the amount', () => {
    // The corpus's pkp-intercity-pl-01 (a PKP Intercity fiscal receipt), as tesseract read it; a
    // ticket line of the same shape. "Suma" (its total) is not a label yet: this receipt's travel
    // date, "02.07" with no year, is not read, and the day it was sold would be taken for the trip's.
    expect(parseAmounts('SUMa: PLN 161.18').map((a) => [a.value, a.code])).toEqual([[161.18, 'PLN']])
    expect(parseAmounts('Bilet 12,50 PLN').map((a) => [a.value, a.code])).toEqual([[12.5, 'PLN']])
  })

  it('"Bruttobetrag" is a German total', () => {
    // The corpus's mytaxi-taxi-de-01 (a mytaxi receipt, Hamburg 2018), excerpt as tesseract read it.
    const text = ['mytaxi ID', 'Quittung Hamburg, 06.05.18', 'Bezeichnung Fahrer ust Brutto', 'Taxifat — 16,40 €', 'Bruttobetrag (inkl. Trinkgeld 16,40 ¢'].join('\n')
    expect(extractReceipt(text)).toMatchObject({ storeName: 'FreeNow', totalAmount: 16.4, purchaseDate: '2018-05-06' })
    expect(extractReceipt(text).signals.totalLabel).toBe('Bruttobetrag')
  })

  it("a receipt printed from a mail client: its date, not the print's", () => {
    // The corpus's lyft-email-us-01, a Lyft receipt printed from Gmail, excerpt.
    const text = ['5/30/22, 7:06 PM Gmail - Your ride with Ahmed on May 10', 'Your ride with Ahmed on May 10', 'Lyft Receipts <no-reply@lyftmail.com> Tue, May 10, 2022 at 6:26 PM', 'MAY 10, 2022 AT 3:58 PM', 'Thanks for riding with Ahmed!', 'Lyft XL fare (14.19mi, 41m 34s) $38.68', 'VISA Visa *5020 $41.98'].join('\n')
    expect(extractReceipt(text)).toMatchObject({ storeName: 'Lyft', totalAmount: 41.98, purchaseDate: '2022-05-10' })
  })

  it("the browser's print stamp is not the purchase, even where the receipt's own date was misread once", () => {
    // PaddleOCR on a smaller copy of the corpus's lyft-email-us-01: "Tue, May 10, 2022" lost its digits.
    const text = ['5/30/22,7:06 PM  Gmail Yourride with Ahmed on May 10', 'Yourridewith AhmedonMay10', 'Tue,May10,222at6:6M', 'MAY 10, 2022 AT 3:58 PM', 'VISA Visa *5020 $41.98'].join('\n')
    expect(extractReceipt(text).purchaseDate).toBe('2022-05-10')
    // A receipt's own date and time, with nothing after them or with its own words, is its date.
    expect(extractReceipt('Lyft\n5/30/22, 7:06 PM\nVISA Visa *5020 $41.98').purchaseDate).toBe('2022-05-30')
    expect(extractReceipt('Lyft\n3/14/26, 5:32 PM  Ride with Ahmed\nTotal $23.50\nPrevious ride 3/10/26').purchaseDate).toBe('2026-03-14')
  })
})

describe("an Ola invoice (the corpus's ola-auto-in-01, as tesseract read it)", () => {
  const text = ['30 Apr, 2023 (0) OLA', 'CRN7290613396', 'Ride Details Bill Details', 'Your Trip 202.13', 'Total Access Fee * 17.7', 'Total Bill (rounded) 220', '? Dehradu Includes $12.33 Taxes', '? Total Payable 222', 'Grievance officer, ANI Technologies Private Limited, Ola Campus, Prestige RMZ star tech'].join('\n')

  it('names Ola by its company, ANI Technologies (its logo is an image)', () => {
    expect(extractReceipt(text).storeName).toBe('Ola')
  })

  it('takes no amount from the next line when that line has words of its own', () => {
    // "Total Bill (rounded) 220": its rupee sign lost, 220 is no amount; the line under it is a tax.
    const fields = extractReceipt(text)
    expect(fields.signals.totalLabel).not.toBe('Total')
    expect(hasTotal(fields)).toBe(false)
  })
})

describe("a rupee sign tesseract read as a digit glued to the amount (the corpus's uber-email-in-01)", () => {
  // Both readers' readings of a real Uber receipt from India, excerpts with their line scores:
  // tesseract read every '₹' as a '2' or '3', PaddleOCR left it out.
  const lines = (rows: Array<[number, string]>) => rows.map(([confidence, text]) => ({ text, confidence, digitConfidence: confidence }))
  const TESSERACT: Array<[number, string]> = [
    [96, 'Your Monday morning trip with Uber'],
    [79, 'Uber EEE ER                     Mon, 13 Jan, 2020 at 11:32 AM'],
    [84, 'Total: 3251.73'],
    [91, 'Uber                            Mon, Jan 13, 2020'],
    [96, 'We hope you enjoyed your ride this'],
    [85, 'Trip Fare                                  2214.56'],
    [73, 'Subtotal                                   3214.56'],
    [88, 'Tolls, Surcharges, and Fees @              37.17'],
    [84, 'Before Taxes                               3239.73'],
    [76, 'CGST (2.5%)                                6'],
    [83, 'SGST/UTGST (2.5%)                          26'],
  ]
  const PADDLE: Array<[number, string]> = [
    [94, 'Your Monday morning trip with Uber'],
    [94, 'Mon, 13 Jan 2020 at 11:32 AM'],
    [92, 'uber  Mon, Jan 13, 2020  Total: 251.73'],
    [98, 'We hope you enjoyed your ride this'],
    [100, 'Total  251.73'],
    [95, 'Trip Fare  214.56'],
    [100, 'Subtotal  214.56'],
    [92, 'Tolls, Surcharges, and Fees  37.17'],
    [96, 'Before Taxes  239.73'],
    [100, 'CGST (2.5%)  6'],
    [99, 'SGST/UTGST (2.5%)  6'],
  ]
  const now = new Date('2020-01-14T12:00:00Z')
  const tesseract = readingOf('tesseract', { lines: lines(TESSERACT), confidence: 88 })
  const paddle = readingOf('paddleocr', { lines: lines(PADDLE), confidence: 97 })

  it('is the same total: the reading without the digit decides, its items adding up to it', () => {
    expect(tesseract.fields).toMatchObject({ totalAmount: 3251.73, currency: 'INR' })
    expect(paddle.fields).toMatchObject({ totalAmount: 251.73, currency: 'INR' })
    const { decided, verdict } = judgeReadings(tesseract, paddle, now)
    expect(decided.reader).toBe('paddleocr')
    expect(verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('only on a page in rupees, only a 2 or a 3 in front, and only where another amount shows the same sign', () => {
    const read = (reader: 'tesseract' | 'paddleocr', rows: Array<[number, string]>, edit: (t: string) => string = (t) => t) =>
      readingOf(reader, { lines: lines(rows.map(([c, t]) => [c, edit(t)])), confidence: 90 })
    expect(rupeeSignAsDigit(tesseract, paddle)).toBe(true)
    // Dollars (no tax of India's): a digit lost is a digit lost.
    const dollars = (t: string) => t.replace(/^(?:CGST|SGST\/UTGST) \(2\.5%\)/, 'Tax').replace(/(\d+\.\d{2})$/, '$$$1')
    expect(read('paddleocr', PADDLE, dollars).fields.currency).toBe('USD')
    expect(rupeeSignAsDigit(read('tesseract', TESSERACT, dollars), read('paddleocr', PADDLE, dollars))).toBe(false)
    // A 5 in front is no rupee sign.
    expect(rupeeSignAsDigit(read('tesseract', TESSERACT, (t) => t.replace('3251.73', '5251.73')), paddle)).toBe(false)
    // The total alone with a digit more: a digit one reader lost, not a sign; the readings disagree and staff look.
    const alone = read('tesseract', TESSERACT, (t) => t.replace(/\b[23](\d{3}\.\d{2})$/, '$1').replace('251.73', '3251.73'))
    expect(alone.fields.totalAmount).toBe(3251.73)
    expect(rupeeSignAsDigit(alone, paddle)).toBe(false)
    expect(judgeReadings(alone, paddle, now).verdict.isAcceptable).toBe(false)
    // Nor where the other pairs are amounts of the page both read ('20.00' beside '0.00'): chance, not a sign.
    const chance = (t: string) => (t.startsWith('Subtotal') ? `Wait time  20.00\nPromotion  0.00\n${t}` : t)
    const withChance = (reader: 'tesseract' | 'paddleocr', rows: Array<[number, string]>) =>
      readingOf(reader, { lines: lines(rows.flatMap(([c, t]) => chance(t).split('\n').map((x) => [c, x] as [number, string]))), confidence: 90 })
    expect(rupeeSignAsDigit(withChance('tesseract', TESSERACT.map(([c, t]) => [c, t.replace(/\b[23](\d{3}\.\d{2})$/, '$1').replace('251.73', '3251.73')])), withChance('paddleocr', PADDLE))).toBe(false)
  })
})

describe("an Indian page whose rupee sign was lost: its whole numbers are amounts", () => {
  // Readings of the corpus's Ola invoices (2014-2023), excerpts: neither reader read a '₹'.
  const ola05 = ['14 Mar 2018 OLA', 'CRN1602939414', 'Ride Details Bill Details', 'Base Fare 50', 'First 15 km 225', 'Last 31.8 km 636', 'Ride Time Fare for 44 min 88', 'Fare Increase 49.95', 'Ride Fare 1048.95', 'Taxes 79.72', 'Total Bill (rounded off) 1129', 'Have queries? Visit support for this ride.', 'Karnataka 560059,India']

  it('an Indian address names the page, its PIN code glued to its state ("Karnataka560059nda", PaddleOCR on a turned copy)', () => {
    const read = ola05.map((l) => l.replace('14 Mar 2018 OLA', '14 Mar 2018').replace('Karnataka 560059,India', 'Karnataka560059nda'))
    expect(extractReceipt(read.join('\n'))).toMatchObject({ totalAmount: 1129, currency: 'INR' })
    // A state's name without a PIN code is no address, nor is one that ends a line over a number.
    expect(extractReceipt(read.map((l) => l.replace('Karnataka560059nda', 'Karnataka')).join('\n')).totalAmount).toBeNull()
    expect(extractReceipt(read.map((l) => l.replace('Karnataka560059nda', 'Karnataka\n560059')).join('\n')).totalAmount).toBeNull()
  })

  it('"Total Bill (rounded off) 1129": a rounded total is within half a rupee of its items', () => {
    const fields = extractReceipt(ola05.join('\n'))
    expect(fields).toMatchObject({ storeName: 'Ola', totalAmount: 1129, currency: 'INR', purchaseDate: '2018-03-14' })
    expect(fields.signals.totalCheck).toBe('near-sum')
    // Without the word, 33 paise off is no cross-check; nor is a round trip rounded.
    expect(extractReceipt(ola05.join('\n').replace(' (rounded off)', '')).signals.totalCheck).toBe('mismatch')
    expect(extractReceipt('Amtrak\nMar 22, 2026\nAdult fare $59.80\nAdult fare $59.80\nTotal Round Trip $120.00').signals.totalCheck).toBe('mismatch')
  })

  it('a page from India names itself: an address, a calling code, or its cesses', () => {
    // ola-cab-in-04 as read: no address, no phone; its "Swachh Bharat Cess" is India's.
    const text = ['OLA INVOICE NO.238880810 09 May 2016', 'TOTAL FARE', '284', 'TOTAL DISTANCE:14.63 km', 'Paid by Ola Money CASH PAD', '250 34', 'Base Fare 40.0 Service Tax 15.01', 'Rate for 14.63 km: 87.78 Swachh Bharat Cess 0.54']
    const fields = extractReceipt(text.join('\n'))
    expect(fields).toMatchObject({ totalAmount: 284, currency: 'INR' })
    // Paid in two parts on a line of figures under how each was paid: 250 + 34 is the cross-check.
    expect(fields.signals.totalCheck).toBe('sum')
    expect(extractReceipt(text.join('\n').replace('250 34', '250 30')).signals.totalCheck).toBe('none')
    // Without the cess, nothing says India: "284" alone is no amount.
    expect(extractReceipt(text.slice(0, 7).join('\n')).totalAmount).toBeNull()
  })

  it('only a figure after the words of its line: no date, time, phone number or distance', () => {
    const lost = { signLost: true }
    expect(parseAmounts('Total Payable Bill 415', lost)).toMatchObject([{ value: 415, currency: false }])
    expect(parseAmounts('Total Payable Bill 415')).toEqual([])
    expect(parseAmounts('First 15 km 225', lost).map((a) => a.value)).toEqual([225])
    expect(parseAmounts('Booking Date 26 Nov, 2014, 10:26 am', lost)).toEqual([])
    expect(parseAmounts('Pickup Date 26 Nov 2014', lost)).toEqual([])
    expect(parseAmounts('Tel: +91 22 3355 3355, Fax: 022 30947974', lost)).toEqual([])
    expect(parseAmounts('Ride time charge for 39.72 min', lost)).toEqual([])
    // A phone number by its word or by its groups, a train's number, a tax's rate.
    expect(parseAmounts('Helpline Tel 1800 419', lost)).toEqual([])
    expect(parseAmounts('Customer care 1800 419 4040', lost)).toEqual([])
    expect(parseAmounts('Train No 12951', lost)).toEqual([])
    expect(parseAmounts('CGST @ 2.5%', lost)).toEqual([])
    // The same words with a fare after them keep it.
    expect(parseAmounts('Train fare 1800', lost).map((a) => a.value)).toEqual([1800])
  })

  it("one decimal is rupees there: an Indian Railways ticket's fare and fees add up to its total", () => {
    // PaddleOCR's reading of the corpus's irctc-ticket-in-02, excerpt (tesseract read "35.4" as "354").
    const text = ['Electronic Reservation Slip(ERS) - Normal User', 'Date of Journey 06-Jan-2024', 'Ticket Fare 700.0', 'IRCTC Convenience Fee (Incl. of GST) 35.4', 'Travel Insurance Premium (Incl. of GST) 0.0', 'Agent Service Charge 40.0', 'PG Charge 19.39', 'Total Fare (allinclusive) 794.79']
    const fields = extractReceipt(text.join('\n'))
    expect(fields).toMatchObject({ totalAmount: 794.79, currency: 'INR' })
    expect(fields.signals.totalCheck).toBe('sum')
    // Elsewhere one decimal is a cent lost to the reading.
    expect(parseAmounts('Ticket Fare 700.0')).toEqual([])
    expect(parseAmounts('Ticket Fare 700.0', { signLost: true })).toMatchObject([{ value: 700 }])
  })

  it('a total\'s word in an aside heads no amount printed before it', () => {
    // ola-cab-in-04 as PaddleOCR read it: "30.0" is a free ride time's charge, not the fare.
    const text = ['OLA INVOICE NO.238880810 09 May 2016', 'TOTAL FARE', '284', 'Paid by Ola Money CASH PAD', '250 34', 'Base Fare 40.0 Service Tax 15.01', 'Rate for 14.63 km: 87.78 Swachh Bharat Cess 0.54', 'Free ride time (0 min) 30.0 (Taxes added to your total fare)']
    expect(extractReceipt(text.join('\n')).totalAmount).toBe(284)
  })

  it("a ticket's one priced amount is not alone beside rupees whose sign was lost", () => {
    const text = ['Electronic Reservation Slip', 'Date of Journey 06-Jan-2024', 'Ticket Fare 700.0', 'Agent Service Charge 40.0', 'Travel Insurance Premium $0.45', 'GSTIN 123']
    expect(extractReceipt(text.join('\n')).signals).toMatchObject({ totalLabel: 'price', priceAlone: false })
  })

  it('a page that names India with its rupee sign read keeps needing one', () => {
    const text = ['Ola', '14 Mar 2018', 'Ride Fare ₹1048.95', 'Taxes ₹79.72', 'Total Payable 1129', 'Karnataka 560059, India']
    expect(extractReceipt(text.join('\n')).totalAmount).toBeNull()
    expect(extractReceipt(text.join('\n').replace('1129', '₹1129')).totalAmount).toBe(1129)
  })
})

describe("a screenshot of an Uber mail, its logo an image and its footer not read", () => {
  it('is named by the sentence only Uber\'s trip receipts print, however the reader broke its lines', () => {
    // Tesseract's reading of the corpus's uber-tip-added-email-01-screenshot, excerpt.
    const text = ['Jul 12, 2026', '3:06 PM', 'Tip', 'Thanks', 'for', 'tipping,', 'Alex', 'Rider', 'We hope you enjoyed', 'your ride this', 'afternoon.', 'Total $27.87', 'Trip fare $17.87', 'Booking Fee $2.60', 'DC Fee $1.18', 'Tip $7.00']
    const fields = extractReceipt(text.join('\n'))
    expect(fields).toMatchObject({ storeName: 'Uber', category: 'ride_share', totalAmount: 27.87 })
    expect(fields.signals.vendorLine).toBe(8)
    // A ride hoped enjoyed without the time of day is anyone's sentence.
    expect(extractReceipt(text.join('\n').replace('afternoon.', 'trip.')).vendor).toBeNull()
  })
})

describe("a trip's time and distance are not money", () => {
  it('an Ola invoice: "TOTAL RIDE TIME : 71.93 min" is no total, "23.95 km" no amount, and "(… your total fare)" heads no amount', () => {
    // Tesseract's reading of the corpus's ola-cab-in-03 (an Ola invoice of 2016), excerpt: its
    // fare, 416, stands in a second column that the reading put on another line.
    expect(parseAmounts('TOTAL RIDE TIME : 71.93 min')).toEqual([])
    expect(parseAmounts('TOTAL DISTANCE: 23.95 km')).toEqual([])
    const text = ['OLA INVOICE N0.172112420', '12 jan, 2016', 'Thanks for using Olacabs', 'New Deli TOTAL FARE', 'TOTAL DISTANCE: 23.95 km', 'TOTAL RIDE TIME : 71.93 min', 'Gurgaon 0 416', 'FARE BREAKUP TAX BREAKUP', 'First 4 km 100.0 Service Tax 318.57', 'Free ride time (0 min) 0.0 (Taxes added to your total fare)', 'Ride time charge for 71.93', 'min:', 'Total tax 19.23'].join('\n')
    const fields = extractReceipt(text)
    expect(fields.totalAmount).not.toBe(71.93)
    expect(judgeReceipt(fields, 90, { reader: 'tesseract', now: new Date('2016-01-13T12:00:00Z') }).isAcceptable).toBe(false)
  })
})

describe('the currency recorded is the receipt\'s own', () => {
  it("a Brazilian Uber receipt's real, 'R$ 50,77', is BRL, not dollars", () => {
    // Tesseract's reading of the corpus's uber-ride-br-01, excerpt.
    const fields = extractReceipt('Uber   19 de setembro de 2022\nObrigado por escolher a Uber, Harry\nTotal   R$ 50,77\nSubtotal   R$ 50,02\nCusto fixo   R$ 0,75')
    expect(fields).toMatchObject({ totalAmount: 50.77, currency: 'BRL' })
    // A word's last letter before a dollar sign is no country: 'EXTRA$2.00' is dollars.
    expect(parseAmounts('EXTRA$2.00')).toMatchObject([{ value: 2, code: 'USD' }])
    expect(extractReceipt('Lyft\nJan 3, 2026\nEXTRA$2.00\nFare 10.00\nTotal 12.00').currency).toBe('USD')
  })

  it("an Indian receipt's rupees, whatever sign the reader made of '₹'", () => {
    // Tesseract's reading of the corpus's rapido-ride-in-01, excerpt: '₹' read as '3', '$' and '¥'.
    const rapido = 'rapido\nTime of Ride   Sep 12th 2023, 9:27 AM\nUttarakhand 248001, India\nRide Charge   3262.12\nBooking Fees & Convenience Charges   322.88\nTotal Amount   $285.00\nCash   ¥ 285.00'
    expect(extractReceipt(rapido)).toMatchObject({ storeName: 'Rapido', totalAmount: 285, currency: 'INR' })
    // A service only India has is in rupees without an address; a page with its GST taxes too.
    expect(extractReceipt(rapido.replace('Uttarakhand 248001, India\n', '')).currency).toBe('INR')
    // The corpus's uber-email-in-01 as read: no sign at all, '₹' read as a digit.
    expect(extractReceipt('Total: 3251.73\nUber   Mon, Jan 13, 2020\nTrip Fare   2214.56\nBefore Taxes   3239.73\nCGST (2.5%)   6\nSGST/UTGST (2.5%)   26').currency).toBe('INR')
    // Dollars stay dollars elsewhere, and a euro is no misread rupee.
    expect(extractReceipt('Uber\nJan 13, 2020\nTotal: $251.73').currency).toBe('USD')
    expect(extractReceipt('Uber\nJan 13, 2020\nGesamt 25,10 €\nBerlin, Germany').currency).toBe('EUR')
  })

  it('names only services that exist', () => {
    for (const name of INDIA_ONLY) expect(VENDORS.some((v) => v.name === name)).toBe(true)
  })

  it('reads an Indian date day first, as India writes it; an American one month first', () => {
    expect(extractReceipt('KSRTC\nDate of Journey 12/03/2024\nFare Rs. 245.00\nTotal Rs. 245.00').purchaseDate).toBe('2024-03-12')
    expect(extractReceipt('Uber\nDate 12/03/2024\nTotal $24.00').purchaseDate).toBe('2024-12-03')
  })
})

describe("a taxi invoice's rate is not a charge", () => {
  // PaddleOCR's reading of the corpus's shenzhen-taxi-cn-06 (a Shenzhen taxi invoice), excerpt: the
  // rate per km above the amount paid, and a surcharge of 0.00 read as 8.08 below it.
  const SHENZHEN = '深圳市出租汽车专用发票\n日期:2023年12月13日\n上车:  23:06\n下车:  23134\n单价:  3.51元\n里程:  19.05KM\n等候:  80:05:52\n金额:  ￥78.00元\n另收附加费:  8.08元'

  it('"单价: 3.51元" (unit price) is no item that fails to add up to "金额: ￥78.00元"', () => {
    const fields = extractReceipt(SHENZHEN)
    expect(fields).toMatchObject({ storeName: 'Taxi', totalAmount: 78, purchaseDate: '2023-12-13', currency: 'CNY' })
    expect(fields.signals.itemAmounts).toEqual([])
    expect(judgeReceipt(fields, 95, { reader: 'paddleocr', now: new Date('2023-12-14T12:00:00Z') }).reasons).not.toContain("The line items don't add up to the total")
  })

  it('nor is "Unit price" or "Price per km"; a charge beside them still is', () => {
    const fields = extractReceipt('City Taxi\n2026-03-02\nPrice per km 2.10\nDistance charge 21.00\nBooking fee 3.00\nTotal 24.00')
    expect(fields.signals.itemAmounts).toEqual([21, 3])
    expect(fields.signals.totalCheck).toBe('sum')
    expect(extractReceipt('Bus ticket\n2026-03-02\nUnit price 1.50\nTotal 3.00').signals.totalCheck).toBe('none')
  })
})

describe("a transit ticket's one price (decision 115)", () => {
  // The corpus's cr-ticket-cn-04 (a China Railway ticket): PaddleOCR's reading, and tesseract's in
  // Chinese, which read the yuan sign as a character ("和144.0元").
  const PADDLE = '36G071818  检票口6B\n宁波站  G7532  上海虹桥站\nNingbo  Shanghaihongqiao\n2016年09月01日08:33开  05车无座\n￥144.0元  网  二等座\n限乘当日当次车\n买票请到12306 发货请到95306\n中国铁路祝您旅途愉快\n33284000360902G071818 手波站售'
  const TESSERACT = '36G071818                   检票口6B\n宁波站 G7532 上海虹桥记\nNingbo     一Shanghalhongqla0\n2016年09月01B 08 与3开    05车无座\n和144.0元        网          三等座\n限乘当日当次李\n，”习覃诸到12306 发货请到95306 |              加\nL__ 中国铁路视您旅什信快 1   站 Ce\n332840003609026071818 2弄波站和售'
  const read = (reader: 'tesseract' | 'paddleocr', text: string, digitConfidence = 99) => ({ reader, text, confidence: 95, fields: extractReceipt({ text, lines: text.split('\n').map((t) => ({ text: t, confidence: 95, digitConfidence })) }) })
  const now = new Date('2016-09-02T12:00:00Z')

  it("tesseract's date, its day's sign misread ('01B'), confirms PaddleOCR's", () => {
    expect(read('tesseract', TESSERACT).fields.purchaseDate).toBe('2016-09-01')
    expect(agreements(read('paddleocr', PADDLE).fields, read('tesseract', TESSERACT).fields)).toMatchObject({ total: true, date: true })
  })

  it('is the total: the page has no other amount, and both readers read it digit for digit', () => {
    const first = read('tesseract', TESSERACT)
    const second = read('paddleocr', PADDLE)
    expect(first.fields).toMatchObject({ totalAmount: 144, currency: 'CNY' })
    expect(second.fields.signals).toMatchObject({ totalLabel: 'price', priceAlone: true })
    const { verdict } = judgeReadings(first, second, now)
    expect(verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('read surely by one reader, it is the total too', () => {
    expect(judgeReadings(read('paddleocr', PADDLE), null, now).verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('its digits read unsurely by the one reader, or beside another amount, it is for staff', () => {
    const unsure = judgeReadings(read('paddleocr', PADDLE, 70), null, now).verdict
    expect(unsure.isAcceptable).toBe(false)
    expect(unsure.reasons).toContain("The total's digits were read with low confidence and not confirmed by a second reading")
    const withFee = (text: string) => text.replace('限乘当日当次车', '限乘当日当次车\n退票费 ￥14.0元')
    const fee = judgeReadings(read('tesseract', withFee(TESSERACT)), read('paddleocr', withFee(PADDLE)), now)
    expect(fee.verdict.isAcceptable).toBe(false)
  })
})

describe('a total with nothing to add up, read alike by both readers (decision 118)', () => {
  // The corpus's db-ticket-de-02 (a DB Online-Ticket of 2016), excerpts. Tesseract lost the table
  // and read the payment's "Betrag"; PaddleOCR read the table's "Summe" but not the euro signs.
  const TESSERACT = 'BAHN Online-Ticket\nICE Fahrkarte\nGiltigkeit: 30.01.2016 - 31.01.2016\nFlexpreis (Einfache Fahrt)\nHinfahrt: * Mannheim+City — Berlin Wannsee, mit ICE\nZahlungspositionen und Preis\nLastschriftzahlung\nBetrag 66,50€ Bank Postbank\nIhre Reiseverbindung und Reservierung Hinfahrt am 30.01.2016'
  const PADDLE = 'BAHN Online-Ticket\nICEFahrkarte\nGoltigkei:30.01.2016-31.01.2016\nZahlungspositionen und Preis\nPositionen ICEFahrkarte 66,50 Mwst D: 19% 10.62 Mwst D: 7%\nSumme 66,50 66,50 10,62 20RAE6H5YNY\nBetrag Bank Postbank Gitigab: 30.01.2016\nIhre Reiseverbindung und Reservierung Hinfahrt am 30.01.2016'
  const read = (reader: 'tesseract' | 'paddleocr', text: string) => ({ reader, text, confidence: 90, fields: extractReceipt({ text, lines: text.split('\n').map((t) => ({ text: t, confidence: 90, digitConfidence: 95 })) }) })
  const now = new Date('2016-01-31T12:00:00Z')

  it('is as sure as a total printed twice: approved', () => {
    const first = read('tesseract', TESSERACT)
    const second = read('paddleocr', PADDLE)
    expect(first.fields).toMatchObject({ storeName: 'Deutsche Bahn', totalAmount: 66.5, purchaseDate: '2016-01-30' })
    expect([first.fields.signals.totalCheck, second.fields.signals.totalCheck]).toEqual(['none', 'none'])
    expect(judgeReadings(first, second, now).verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('read by one reader, or read differently, it is for staff', () => {
    const alone = judgeReadings(read('tesseract', TESSERACT), null, now).verdict
    expect(alone.isAcceptable).toBe(false)
    expect(alone.reasons).toContain('The total could not be cross-checked against the line items')
    const other = judgeReadings(read('tesseract', TESSERACT), read('paddleocr', PADDLE.replace('Summe 66,50 66,50', 'Summe 68,50 68,50')), now).verdict
    expect(other.isAcceptable).toBe(false)
  })

  it('"Hinfahrtam 22.12.2015", its words glued by the reader, is the journey\'s date', () => {
    // PaddleOCR's reading of the corpus's db-ticket-de-05, excerpt: booked on 11 December, travelled on the 22nd.
    const text = 'BAHN Online-Ticket\nBetrag Datum 11.12.2015 Bank IBAN Postbank Gilig ab: 22.12.2015\nhre Reiseverbindung und Reservierung Hinfahrtam 22.12.2015\nIhre Reiseverbindung und Reservierung Ruckfahrt am 03.01.2016'
    expect(extractReceipt(text).purchaseDate).toBe('2015-12-22')
    expect(extractReceipt(text).signals.travelDate).toBe(true)
  })

  it("under a payment's word, not a total's, it is for staff too", () => {
    const visa = (text: string) => text.replace(/Betrag 66,50€/, 'Visa 66,50€').replace(/Summe 66,50 66,50 10,62/, 'Visa 66,50')
    const { verdict } = judgeReadings(read('tesseract', visa(TESSERACT)), read('paddleocr', visa(PADDLE)), now)
    expect(verdict.isAcceptable).toBe(false)
  })
})

describe('totals in more languages', () => {
  it('Polish "SUMA" and "Razem … do zapłaty" head a total', () => {
    // PaddleOCR's reading of the corpus's kmk-transit-pl-01 (a Kraków ticket machine's receipt), excerpt.
    const kmk = extractReceipt('Komunikacja Miejska\nwKrakowie\nDowodsprzedazy\nData/ godzina: 20.10.2020 16:52\nBilet: ulgowy\nSUMA: 53,00 PLN')
    expect(kmk).toMatchObject({ totalAmount: 53, currency: 'PLN', purchaseDate: '2020-10-20' })
    expect(kmk.signals.totalLabelStrength).toBeGreaterThanOrEqual(2)
    // A Polish taxi invoice's words for the amount due.
    expect(extractReceipt('Faktura\nRazem kwota należności ogółem do zapłaty: 39,00 zł').signals.totalLabelStrength).toBe(3)
  })
})

describe("a Chinese date whose day's sign was read as a digit at the end of its line", () => {
  it('"日期:  2023年12月148" is 14 December (a real Shenzhen taxi invoice, as PaddleOCR read it)', () => {
    expect(parseDates('日期:  2023年12月148')).toEqual([{ iso: '2023-12-14', format: 'iso' }])
    expect(parseDates('日期:  2023年12月16日')).toEqual([{ iso: '2023-12-16', format: 'iso' }])
    // Three digits with more after them are no day and its sign.
    expect(parseDates('2023年12月148 号')).toEqual([])
  })
})

describe('a sign after a word that ends in a digit-like letter', () => {
  it('"Total €12.00" is twelve euros, its sign read: the "l" of "Total" is no digit', () => {
    expect(parseAmounts('Total €12.00')).toMatchObject([{ value: 12, code: 'EUR', currency: true }])
    expect(parseAmounts('Fahrpreis €12,00')).toMatchObject([{ value: 12, code: 'EUR', currency: true }])
  })
})

describe('a total printed twice, one copy read unsurely (issue 37)', () => {
  // PaddleOCR's reading of the corpus's ola-cab-in-03 (an Ola invoice of 2016), excerpt: its big
  // "416" under "TOTAL FARE" scored 54 a digit, the "416" of its "CASH PAID" line 100. The second
  // reading (tesseract) missed the big figure.
  const LINES: Array<[string, number]> = [
    ['INVOICE NO.172112420', 99],
    ['12 Jan 2016', 99],
    ['OLA', 100],
    ['Thanks for using Olacabs', 99],
    ['TOTAL FARE', 99],
    ['416', 54],
    ['TOTAL DISTANCE: 23.95 km', 99],
    ['CASH PAD', 100],
    ['416', 100],
    ['FARE BREAKUP  TAXBREAKUP', 99],
    ['First 4 km:  100.0  Service Tax  18.57', 99],
    ['Rate for 19.95 km:  159.6  Swachh Bharat cess  0.66', 99],
  ]
  const read = (lines: Array<[string, number]>) => {
    const text = lines.map(([t]) => t).join('\n')
    return { reader: 'paddleocr' as const, text, confidence: 97, fields: extractReceipt({ text, lines: lines.map(([t, d]) => ({ text: t, confidence: 97, digitConfidence: d })) }) }
  }
  const now = new Date('2016-01-13T12:00:00Z')

  it('is as sure as its surer copy: approved', () => {
    const reading = read(LINES)
    expect(reading.fields).toMatchObject({ storeName: 'Ola', totalAmount: 416, currency: 'INR', purchaseDate: '2016-01-12' })
    expect(reading.fields.signals).toMatchObject({ totalCheck: 'repeated', totalDigitConfidence: 100 })
    expect(judgeReadings(reading, null, now).verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it("lends its score only from the amount paid or a total, read as printed", () => {
    const scored = (text: string, scores: number[]) => ({ text, confidence: 97, digitConfidence: Math.min(...scores), digitScores: scores })
    const surest = (lines: ReturnType<typeof scored>[]) => extractReceipt({ text: lines.map((l) => l.text).join('\n'), lines }).signals.totalDigitConfidence
    const total = scored('Total $41.60', [99, 54, 99, 99])
    expect(surest([scored('Uber', []), total, scored('Paid by Visa $41.60', [100, 100, 100, 100])])).toBe(100)
    // A copy whose unsure digit is a letter ('4l.60') was never scored: no lending.
    expect(surest([scored('Uber', []), total, scored('Paid by Visa $4l.60', [100, 100, 100])])).toBe(54)
    // An item of the same figure below the total (an e-mail's breakdown) is no copy of it.
    expect(surest([scored('Uber', []), total, scored('Trip fare $41.60', [100, 100, 100, 100]), scored('Promotion -$2.00', [100, 100, 100])])).toBe(54)
  })

  it('with both copies read unsurely, it is for staff', () => {
    const { verdict } = judgeReadings(read(LINES.map(([t, d]) => [t, t === '416' ? 54 : d])), null, now)
    expect(verdict.isAcceptable).toBe(false)
    expect(verdict.reasons).toContain("The total's digits were read with low confidence and not confirmed by a second reading")
  })
})

describe("a Chinese taxi meter's invoice, by its form (issue 37)", () => {
  // PaddleOCR's readings of the corpus's Shenzhen taxi invoices (dot-matrix print), excerpts: -06
  // read right, -03 with the amount's point lost, -04 with its title misread, -02 with every sign
  // of its date read as a digit.
  const SZ06 = '深圳市出租汽车专用发票\n日期:2023年12月13日\n上车:  23:06\n下车:  23134\n单价:  3.51元\n里程:  19.05KM\n等候:  80:05:52\n金额:  ￥78.00元\n另收附加费:  8.08元'
  const SZ03 = '深圳市出租汽车专用发票\n日期:  2024年01月02日\n上车:  18:43\n下车:  19114\n单价:  2.70元\n里程:  7.62KM\n等候:  00:15:47\n金额:  ￥3800元\n另收附加费:  0.00元'
  const SZ04 = '深圳临租汽华专师  发票\n国家税务总局\n发票号码08573645\n日期:  2023年12月148\n上车:  14:08\n下车:  14:41\n单价:  2.70元\n里程:  16.85KM\n等候:  00:09:38\n金额:  ￥58.00元\n另收附加费:  ￥0.00元'
  const now = new Date('2024-01-03T12:00:00Z')
  const judge = (text: string) => judgeReceipt(extractReceipt(text), 95, { reader: 'paddleocr', now })

  it('an amount its rate and distance account for is cross-checked: approved', () => {
    expect(extractReceipt(SZ06).signals.meterFare).toBe(true)
    expect(judge(SZ06)).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it("an amount far over or under rate x distance (a point lost, the rate taken for it) is for staff", () => {
    expect(extractReceipt(SZ03)).toMatchObject({ totalAmount: 3800 })
    expect(extractReceipt(SZ03).signals.meterFare).toBe(false)
    expect(judge(SZ03).reasons).toContain('The total could not be cross-checked against the line items')
    expect(extractReceipt(SZ06.replace('￥78.00元', '￥7.80元')).signals.meterFare).toBe(false)
    // No rate or no distance read: nothing to check against.
    expect(extractReceipt(SZ06.replace('里程:  19.05KM', '里程:')).signals.meterFare).toBe(false)
  })

  it('its title misread, the form still names a taxi; two of its words do not', () => {
    expect(extractReceipt(SZ04)).toMatchObject({ storeName: 'Taxi', category: 'ride_share', totalAmount: 58, purchaseDate: '2023-12-14' })
    expect(extractReceipt('小票\n单价:  2.70元\n金额:  ￥58.00元').vendor).toBeNull()
    // Without the ride's own labels (单价 and 金额 head any invoice's lines), or on a car rental's form: no taxi.
    expect(extractReceipt('小票\n单价:  2.70元\n数量:  2\n等候:  00:01:00\n里程:  16.85KM\n金额:  ￥58.00元').vendor).toBeNull()
    expect(extractReceipt(SZ04.replace('深圳临租汽华专师  发票', '深圳汽车租赁有限公司')).vendor).toBeNull()
  })

  it('a tilted photo whose reader joined two labels of the form on one line is still the form', () => {
    // PaddleOCR on a copy of the corpus's shenzhen-taxi-cn-05 turned 2.5°: 日期 and 上车 on one line, the title misread (车 as 军).
    const text = '深圳市出租汽军专用发票\n日期:  上车:  2023年12月16日  14:54\n下车:  15:00\n单价:  2.70元\n里程:  2.75KM\n等候:  00:02:35\n金额:  ￥14.50元'
    expect(extractReceipt(text)).toMatchObject({ storeName: 'Taxi', totalAmount: 14.5, purchaseDate: '2023-12-16' })
    // A label after a value heads nothing, and a header of labels run together is no column of the form.
    expect(extractReceipt(text.replace('日期:  上车:  2023年12月16日  14:54', '日期:  2023年12月16日  上车:  14:54')).vendor).toBeNull()
    expect(extractReceipt('小票\n上车下车里程等候\n金额:  ￥14.50元').vendor).toBeNull()
  })

  it('a point lost on both the distance and the amount, or a letter read for a digit, is no meter fare', () => {
    expect(extractReceipt(SZ06.replace('19.05KM', '1905KM').replace('￥78.00元', '￥7800元')).signals.meterFare).toBe(false)
    expect(extractReceipt(SZ06.replace('￥78.00元', '￥7B.00元')).signals.meterFare).toBe(false)
  })

  it("a date is as sure as its own digits, not as the day's sign read as a digit beside them", () => {
    // PaddleOCR's scores for -04's date line, digit by digit: the '8' (its 日 misread) scored 57.
    const text = SZ04
    const lines = text.split('\n').map((t) => ({
      text: t,
      confidence: 95,
      digitConfidence: t.startsWith('日期') ? 57 : 97,
      digitScores: t.startsWith('日期') ? [100, 94, 100, 99, 100, 100, 100, 100, 57] : null,
    }))
    const fields = extractReceipt({ text, lines })
    expect(fields.signals.dateDigitConfidence).toBe(94)
    expect(judgeReceipt(fields, 95, { reader: 'paddleocr', now }).reasons).toEqual([])
    // Without digit-by-digit scores, the line's lowest stands: for staff.
    const unscored = extractReceipt({ text, lines: lines.map((l) => ({ ...l, digitScores: null })) })
    expect(judgeReceipt(unscored, 95, { reader: 'paddleocr', now }).reasons).toContain("The purchase date's digits were read with low confidence and not confirmed by a second reading")
  })

  it("'日期: 20234128308', every sign read as a digit, is 30 December 2023; eleven digits elsewhere are no date", () => {
    expect(extractReceipt('深圳市出租汽车专用发票\n日期:  20234128308\n金额:  ￥40.50元').purchaseDate).toBe('2023-12-30')
    expect(extractReceipt('深圳市出租汽车专用发票\n发票号码 20234128308\n金额:  ￥40.50元').purchaseDate).toBeNull()
    // A compact date run into its time is not one whose signs were read as digits (it is 5 November).
    expect(extractReceipt('深圳市出租汽车专用发票\n日期: 2024110509:30\n金额:  ￥40.50元').purchaseDate).not.toBe('2024-10-09')
  })
})

// A Grab ride's e-mail, forwarded from a phone and printed to PDF (2025), as tesseract read the page
// (its "Booking ID" misread): the forwarder's header, then the mail's own. Its logo is an image. Names replaced.
const GRAB_FORWARDED = `From:                      Alex Rider
To:                          Sam Rider
Subject:                Fwd: Your Grab E-Receipt
Date:                       Tuesday, 26 August 2025 12:48:38 pm
Sent from my iPhone
Begin forwarded message:
From: Grab <no-reply@grab.com>
Date: 26 August 2025 at 12:44:26 SGT
To: rider@example.com
Subject: Your Grab E-Receipt
Reply-To: Grab <no-reply@grab.com>
Premium
Hope you enjoyed your ride!
Picked up on 26 August 2025
Baoking ID: A-8905QPCGWCWAAV.
Total Paid                              SGD 10.60
Breakdown
Fare                                                 9.20
Platform & partner fee                               0.90
Driver Fee                                           0.50
Total Paid                                          10.60`

/** An ordinary receipt with one more line at `at`. */
const withLine = (line: string, at = 5) => {
  const lines = ['Harbour Cafe', '12 Quay Street', 'Receipt 4411', 'Flat white 4.50', 'Croissant 3.75', 'Total $8.25', 'Visa 1234 $8.25', '2025-08-26 10:02']
  lines.splice(at, 0, line)
  return lines.join('\n')
}

describe("a mail's sender address names its service (tenth session)", () => {
  it("'From: Grab <no-reply@grab.com>', far down a forwarded mail's printout, is Grab's letterhead", () => {
    const fields = extractReceipt(GRAB_FORWARDED)
    expect(fields.vendor?.name).toBe('Grab')
    expect(fields.category).toBe('ride_share')
    expect(fields).toMatchObject({ totalAmount: 10.6, currency: 'SGD', purchaseDate: '2025-08-26' })
  })

  it('without its sender addresses, the word alone names no one so far down a page', () => {
    const unsent = GRAB_FORWARDED.split('\n').filter((l) => !/^(?:From|Reply-To): Grab/.test(l))
    expect(matchVendor(unsent)?.vendor.name).not.toBe('Grab')
    expect(matchVendor(['Thanks for shopping with us', 'Order 1234', 'Items', 'Grab a coffee on your way: 10% off'])).toBeNull()
  })

  it("only the address counts: not the name a sender typed, a person's, a street's or a station's", () => {
    // What a review of the first version approved as rides.
    for (const line of [
      'From: Harbour Cafe via Square <receipts@messaging.squareup.com>',
      'From: Ola Nowak <ola.nowak@gmail.com>',
      'Da: Via Roma 12, Milano',
      'Da: Dott. Mario Rossi',
      'Sender: Larry Bird',
      'From: Via Verde To: Centro',
      'Von: Hotel Adler uber booking.com <noreply@booking.com>',
    ]) {
      const fields = extractReceipt(withLine(line))
      expect(fields.vendor?.kind ?? null, line).not.toBe('transport')
      expect(judgeReceipt(fields, 95, { reader: 'tesseract', now: new Date('2025-08-27T12:00:00Z') }).isAcceptable, line).toBe(false)
    }
  })

  it("Grab's address names Grab only on a page that shows one trip: not its meals, groceries or parcels", () => {
    const noTrip = GRAB_FORWARDED.replace('Picked up on 26 August 2025\n', '').replace('Baoking ID: A-8905QPCGWCWAAV.\n', '').replace('Hope you enjoyed your ride!', 'Thanks for your payment')
    expect(extractReceipt(noTrip).vendor?.name).not.toBe('Grab')
    for (const service of ['GrabExpress', 'GrabMart', 'GrabFood']) {
      const other = GRAB_FORWARDED.replace('Premium', `${service} order`)
      expect(extractReceipt(other).signals.notATrip?.kind, service).toBe('food_order')
    }
  })
})

describe("dollars of other countries, by their codes (tenth session)", () => {
  it("'SGD 10.60' and 'S$10.60' are Singapore dollars; 'CAD', 'AUD' and 'HKD' are theirs", () => {
    expect(parseAmounts('Total Paid SGD 10.60')[0]).toMatchObject({ value: 10.6, code: 'SGD' })
    expect(parseAmounts('Total S$10.60')[0]).toMatchObject({ value: 10.6, code: 'SGD' })
    expect(parseAmounts('Total CAD 42.71')[0]).toMatchObject({ value: 42.71, code: 'CAD' })
    expect(parseAmounts('Total AUD 12.00')[0]).toMatchObject({ value: 12, code: 'AUD' })
    expect(parseAmounts('Total HKD 88.00')[0]).toMatchObject({ value: 88, code: 'HKD' })
    // After the amount too, and on a page whose total has no sign of its own.
    expect(parseAmounts('Total 10.60 SGD')[0]).toMatchObject({ value: 10.6, code: 'SGD' })
    expect(extractReceipt('Grab\nFare SGD 9.20\nTotal 10.60\n26 Aug 2025').currency).toBe('SGD')
    // A code glued to a word is part of the word; an address's 'SS21' read as 'S$S21' is no dollar.
    expect(parseAmounts('XSGD10.60')[0]?.code ?? null).not.toBe('SGD')
    expect(extractReceipt('McDonald\'s\nNo.3, Jalan S$S21/39, 47400 Petaling Jaya\nTotal 26.60\n26/08/2025').currency).not.toBe('SGD')
  })
})

describe('a date writes one separator twice (tenth session)', () => {
  it("'1@2.19 or 2/4.00', a multi-buy price on a real Walgreens receipt, is no date; its '05/24/2022' is", () => {
    expect(parseDates('1@2.19 or 2/4.00')).toEqual([])
    expect(parseDates('05/24.2022')).toEqual([])
    // The page's misread '£' (a masked account number) made it day-first, and '2/4.00' was taken for 2 April 2000.
    const text = 'Walgreens\n#03296 191 E 3RD AVE\n117  4782  0022  05/24/2022 1:10 PM\n1@2.19 or 2/4.00\nTOTAL 29.53\nmyWalgreens ACCT # skxtkk++£0053'
    expect(extractReceipt(text).purchaseDate).toBe('2022-05-24')
    // Real dates keep their one separator, twice.
    expect(parseDates('05/24/2022')[0]?.iso).toBe('2022-05-24')
    expect(parseDates('02.03.2020')[0]?.iso).toBe('2020-03-02')
    expect(parseDates('2026-11-26')[0]?.iso).toBe('2026-11-26')
  })
})

describe('a fresh set of real receipts, measured blind (eleventh session)', () => {
  // A real DiDi itinerary (滴滴出行-行程单) of one trip, as PaddleOCR read it.
  const DIDI_ITINERARY = `出行
滴滴企业版
滴滴出行-行程单
DIDI TRAVEL - TRIP TABLE
申请日期:2024-05-14  行程起止日期:2024-05-14至2024-05-14
.行程人手机号:13900000000  .共1笔行程,合计34.01元
序号  车型  上车时间  城市  起点  终点  里程[公里]  金额[元]`

  it('滴滴出行 is DiDi, the one company, in Chinese as in English', () => {
    expect(extractReceipt(DIDI_ITINERARY).vendor?.name).toBe('DiDi')
    expect(matchVendor(['Didi Chuxing', 'Trip receipt'])?.vendor.name).toBe('DiDi')
  })

  it('an itinerary of several trips is a summary, for staff; of one trip, that trip', () => {
    expect(extractReceipt(DIDI_ITINERARY).signals.notATrip).toBeNull()
    const several = DIDI_ITINERARY.replace('共1笔行程,合计34.01元', '共2笔行程,合计365.30元')
    expect(extractReceipt(several).signals.notATrip?.kind).toBe('trip_summary')
    // Amap's words for it, as a real Amap itinerary prints them.
    const amap = '高德地图\nAMAP ITINERARY\n|申请时间:2025-03-04  行程时间:2025-02-21 19:38至2025-02-28 17:44\n|行程人手机号:15600000000  共计2单行程,合计53.21元'
    const fields = extractReceipt(amap)
    expect(fields.vendor?.name).toBe('Amap')
    expect(fields.signals.notATrip?.kind).toBe('trip_summary')
    expect(judgeReceipt(fields, 95, { reader: 'paddleocr', now: new Date('2025-03-05T12:00:00Z') }).isAcceptable).toBe(false)
    expect(classifyMessage({ subject: null, text: '共计12单行程，合计279.20元' }).kind).toBe('trip_summary')
  })

  // A real ride-hailing VAT e-invoice (T3出行's company), as PaddleOCR read it.
  const T3_INVOICE = `江苏增值电动  发票代码:032002100611  发票号码:75315843
国家税务总局  开票日期:2022年03月10日
货物或应税劳务,服务名称  规格型号  单位  数量  单价  金额  税率  税额
*运输服务*客运服务费  次  8.97  8.97  9%  0.81
￥8.97  ￥0.81
价税合计(大写)  玖圆柒角捌分  (小写)￥9.78
名  称:南京领行科技股份有限公司`

  it("a ride-hailing VAT invoice names T3 by its company, and goes to staff: it may cover a month of rides, dated the day it was issued", () => {
    const fields = extractReceipt(T3_INVOICE)
    expect(fields.vendor?.name).toBe('T3出行')
    expect(fields).toMatchObject({ totalAmount: 9.78, currency: 'CNY', purchaseDate: '2022-03-10' })
    expect(fields.signals.notATrip).toMatchObject({ kind: 'tax_invoice', evidence: '价税合计' })
    expect(judgeReceipt(fields, 95, { reader: 'paddleocr', now: new Date('2022-03-11T12:00:00Z') }).isAcceptable).toBe(false)
  })

  it('an itinerary is one trip only when it says so; other words for several trips, or none read, go to staff', () => {
    const t3 = 'T3出行\nT3出行-行程单\n申请日期:2026-11-20  行程起止日期:2026-11-02至2026-11-18\n共2个行程,合计87.50元'
    expect(extractReceipt(t3).signals.notATrip?.kind).toBe('trip_summary')
    expect(extractReceipt(DIDI_ITINERARY.replace('共1笔行程,', '')).signals.notATrip?.kind).toBe('trip_summary')
    expect(extractReceipt(DIDI_ITINERARY.replace('共1笔行程', '共2単行程')).signals.notATrip?.kind).toBe('trip_summary')
    // A count on one line is not a word of the next: a one-trip receipt's "共2笔" payments.
    expect(extractReceipt('滴滴出行\n支付方式 共2笔\n行程费用 ¥34.01\n2024-05-14 19:21').signals.notATrip).toBeNull()
  })

  it("DiDi's and Kakao T's other services are not rides: a designated driver, freight, fuel, a car's rental", () => {
    for (const [text, evidence] of [
      ['滴滴代驾\n代驾服务费 ¥59.00\n合计 ¥59.00\n2026-11-20', '代驾'],
      ['滴滴货运\n运费 ¥75.00\n合计 ¥75.00\n2026-11-20', '货运'],
      ['滴滴加油\n92# 汽油 ¥280.00\n合计 ¥280.00\n2026-11-20', '加油'],
      ['滴滴租车\n租金 ¥380.00\n合计 ¥380.00\n2026-11-20', '租车'],
      ['카카오T 대리\n대리운전 이용 영수증\n이용일시 2026-11-20 23:10\n합계 25,000원', '카카오T 대리'],
    ]) {
      const fields = extractReceipt(text)
      expect(fields.signals.notATrip, text).toMatchObject({ kind: 'other_service', evidence })
      expect(judgeReceipt(fields, 95, { reader: 'paddleocr', now: new Date('2026-11-21T12:00:00Z') }).isAcceptable, text).toBe(false)
    }
    // A taxi (出租车) rents no car.
    expect(extractReceipt('北京市出租汽车专用发票\n出租车\n金额 ¥40.50元\n日期 2023-12-30').signals.notATrip).toBeNull()
  })

  // A real Spanish coach ticket (Movelia), as PaddleOCR read it: euros with a decimal comma and an 'E'.
  const MOVELIA = `a  Con este billeteel viajero podra irdirectamente al autobus.
IDA  FECHA  HORA  ASIENTO
MADR-E.SUR/  30/04/2019  23:59  08
VUELTA  FECHA  HORA  BUS  ASIENTO
ANTEQUERA/  05/05/2019  13:50  04
BILLETE ADQUIRIDO EN  MOVELIATECNOLOGIASSCIF:  FECHA EMISION BILLETE 05/03/2019
MAORESURI  DABUS-INTERBUSS  A28170207  879/10991191319-1  14,39  1,44  15,83
ANTEOUER  DABUS-INTERBUSS.  879/10991191319-2  11,51  1,15  12,66
Importe bilete(s)  Costedegestin  Recargo  Cargo Open  Importe total
28,49  2,60E  0,00  0.00  0.00  31,09 E`

  it('decimal commas make a page day-first; the outward journey (IDA) is the trip, the issue date is not', () => {
    expect(extractReceipt(MOVELIA).purchaseDate).toBe('2019-04-30')
    expect(extractReceipt('FECHA EMISION BILLETE 05/03/2019\nImporte 28,49\nTotal 31,09').purchaseDate).toBe('2019-03-05')
    // Each label on its own: the outward journey's, and the issue date's without its 'de'.
    expect(extractReceipt('Billete\nANTEQUERA 28/04/2019\nIDA  FECHA  HORA\nMADRID 30/04/2019 23:59\nImporte 28,49\nTotal 31,09').purchaseDate).toBe('2019-04-30')
    expect(extractReceipt('MADRID 30/04/2019\nFECHA EMISION BILLETE 05/03/2019\nImporte 28,49\nTotal 31,09').purchaseDate).toBe('2019-04-30')
    // An American receipt stays month-first, and one comma misread for a point does not turn it.
    expect(extractReceipt('Yellow Cab\n05/03/2019\nFare 12,50\nTip 2.00\nTotal 14.50').purchaseDate).toBe('2019-05-03')
    // Nor do all its points read as commas: a page of dollars is not turned.
    expect(extractReceipt('Yellow Cab\n03/12/2026 8:14 PM\nFare $12,50\nExtras $1,00\nTotal $13,50').purchaseDate).toBe('2026-03-12')
    expect(extractReceipt('Uber\n12/03/2026\nTrip fare 12,50\nBooking fee 2,35\nTotal $14,85').purchaseDate).toBe('2026-12-03')
  })

  it("Ida is a name and a street's: only 'IDA' heading a line, or 'Ida:', labels the outward journey", () => {
    const stamp = '5/30/22, 7:06 PM Gmail - Your ride with Ida on May 10\nlyft\nMay 10, 2022 at 3:14 PM\nLyft fare (5.2mi, 18m 4s) $18.20\nTotal charged $20.50\nVisa *1234 $20.50'
    expect(extractReceipt(stamp).purchaseDate).toBe('2022-05-10')
    const street = 'Lyft\nMay 10, 2022\nPickup 3:14 PM 120 Ida St\nMay 12, 2022\nTotal charged $20.50'
    expect(extractReceipt(street).purchaseDate).toBe('2022-05-10')
    expect(extractReceipt('Billete\nIda: 30/04/2019\nVuelta: 05/05/2019\nEmitido 28/04/2019\nTotal 31,09 €').purchaseDate).toBe('2019-04-30')
  })

  it('a Korean page prints won without a sign: "합계 34,000" under "금액 30,909원" and "부가세 3,091원"', () => {
    // Korean's reading of a real card slip (a food delivery's).
    const slip = '매출전표\n승인번호             32833823\n카드종류             신한카드\n총 결제금액\n금액                  30,909원\n부가세                3,091원\n합계                  34,000'
    const fields = extractReceipt(slip)
    expect(fields).toMatchObject({ totalAmount: 34000, currency: 'KRW' })
    expect(fields.signals.totalCheck).toBe('sum')
    // Only on a Korean page, and only figures in thousands.
    expect(extractReceipt('Store 12\nItems 30,909\nTotal 34,000').totalAmount).toBeNull()
    // A figure with its unit is no amount, and points earned are no item: the fares add up.
    const taxi = '서울 택시\n영수증\n승차일시 2026-11-20 21:03\n기본요금 4,800원\n운행거리 5,230m\n포인트 적립 1,480\n주행요금 10,000원\n합계 14,800원'
    expect(extractReceipt(taxi)).toMatchObject({ totalAmount: 14800, currency: 'KRW' })
    expect(extractReceipt(taxi).signals.totalCheck).toBe('sum')
  })
})

describe('Korean taxis and names in Hangul (twelfth session)', () => {
  // The labels of Korean taxi receipts as a Korean expense tool reads them (탑승시간, 차량번호, the
  // distance in km, a taxi's plate); we have no real receipt of our own yet.
  const card = '[영수증]\n차량번호: 서울 32 사 1234\n사업자번호: 123-45-67890\n탑승시간 2019/03/02 14:05\n주행거리 5.2 km\n요금 8,700원\n카드승인금액 8,700원'

  it("a Korean taxi's receipt that never says 택시 is a taxi by its form: car number, boarding, distance", () => {
    const fields = extractReceipt(card)
    expect(fields).toMatchObject({ vendor: { name: 'Taxi' }, category: 'ride_share', totalAmount: 8700, currency: 'KRW', purchaseDate: '2019-03-02' })
    const plateOnly = '영수증\n32사1234\n승차 2019-03-02 14:05\n하차 2019-03-02 14:25\n거리 5.23km\n합계 8,700원'
    expect(extractReceipt(plateOnly).vendor?.name).toBe('Taxi')
  })

  it('a parking slip, a freight note, a boarding pass and a shop with a car number are no taxi', () => {
    const parking = '영수증\n차량번호 12가3456\n입차 2019-03-02 14:05\n출차 2019-03-02 16:25\n주행 0.0km\n합계 6,000원'
    const freight = '운송장\n차량번호 서울 80 바 1234\n상차 2019-03-02 09:00\n하차 2019-03-02 14:00\n운행거리 120km\n합계 180,000원'
    const boarding = '탑승권\n탑승시간 14:05\n편명 KE1234\n비행거리 450km\n합계 89,000원'
    const shop = '영수증\n차량번호 서울 32 사 1234\n승차 세차\n상품명 수량 금액\n주행 5.2km\n합계 8,700원'
    for (const text of [parking, freight, boarding, shop]) expect(extractReceipt(text).vendor?.name).not.toBe('Taxi')
  })
})

describe('a fourth set of real receipts, measured blind (twelfth session)', () => {
  it("Europe's own services write the day first, even where a reader lost the euro sign", () => {
    // PaddleOCR's reading of a real Trenitalia ticket: its "€" is gone.
    const trenitalia = 'TRENITALIA\nGRUPPO FERROVIE DELLO STATO ITALIANE\nVIAGGIO da Roma Termini a Torino Porta Nuova il 01/02/2026 alle ore 16:10  PNR: L8DZY5\nImporto totale*: 113.90'
    expect(extractReceipt(trenitalia).purchaseDate).toBe('2026-02-01')
    // A service that also runs where the month comes first keeps the page's own signs.
    expect(extractReceipt('FlixBus\nDeparture 01/02/2026 16:10\nTotal 113.90').purchaseDate).toBe('2026-01-02')
  })

  it('Italian months and weekdays, spaces or none ("LUNEDI02FEBBRAIO2026", a real SNCF ticket sold in Italy)', () => {
    expect(parseDates('LUNEDI 02 FEBBRAIO 2026')).toEqual([{ iso: '2026-02-02', format: 'written' }])
    expect(parseDates('LUNEDI02FEBBRAIO2026  Prezzo del biglietto: 134,00 EUR')).toEqual([{ iso: '2026-02-02', format: 'written' }])
    expect(parseDates('14 maggio 2025')[0]?.iso).toBe('2025-05-14')
    // The weekday printed is checked against the date: 2 February 2026 was a Monday.
    expect(extractReceipt('SNCF\nMARTEDI 02 FEBBRAIO 2026\nPrezzo del biglietto: 134,00 EUR').signals.dateWeekday).toBe(2)
  })

  it("a seat's numbers are no item: a real KSRTC ticket's \"Seat Nols : 21,22\" against its fare of 708.00", () => {
    const ksrtc = 'KSRTC\nE-Ticket/Reservation Voucher\nDate of Journey : 25/03/2012\nNo. of Seats : 2 (Adults=2 ; Children=0)\nSeat Nols :                  21,22\nTotal Fare : 708.00 (incl. of Reservation Fee Rs. 20.00)'
    const fields = extractReceipt(ksrtc)
    expect(fields).toMatchObject({ totalAmount: 708 })
    expect(fields.signals.totalCheck).not.toBe('mismatch')
    expect(fields.signals.itemAmounts).toEqual([])
  })

  it("a long name run into the words around it is still the name: PaddleOCR's \"KARNATAKASTATEROADTRANSPORTCORPORATION\"", () => {
    expect(matchVendor(['g-/Ox2/E-Ticket ReservationVoucher', 'F/KARNATAKASTATEROADTRANSPORTCORPORATION  BoardingQR'])?.vendor.name).toBe('KSRTC')
    // Only names of three words and fifteen letters or more: a shorter one inside a word is another word.
    expect(matchVendor(['PARKINGLOTSEPTAVENUE'])).toBeNull()
    expect(matchVendor(['MEGABUSINESSCENTRE'])).toBeNull()
  })

  it('a fare table: the total under its label, the amounts before it its items (a real IRCTC booking mail)', () => {
    const table = 'Fare Details (Inclusive of GST)\nTicket Fare                     Convenience Fee                      Total Fare\nRs. 360.00                      Rs.17.70                             Rs.377.70'
    const fields = extractReceipt(table)
    expect(fields).toMatchObject({ totalAmount: 377.7, currency: 'INR' })
    expect(fields.signals).toMatchObject({ totalLabel: 'Total Fare', totalCheck: 'sum', itemAmounts: [360, 17.7] })
    // Parts that do not add up are a mismatch; a row with fewer amounts than labels is no such table.
    expect(extractReceipt(table.replace('Rs.17.70', 'Rs.12.70')).signals.totalCheck).toBe('mismatch')
    expect(extractReceipt('Ticket Fare     Convenience Fee     Total Fare\nRs. 360.00     Rs.377.70').signals.totalCheck).not.toBe('sum')
  })

  it("a ticket's conditions: a cap is no price, and a fee in a sentence is no amount after the total (real SNCF tickets)", () => {
    const sncf = 'SNCF\nLUNEDI 02 FEBBRAIO 2026   Prezzo del biglietto : 110,00 EUR\nTGV INOUI 12265 - 2a CLASSE\nCarrozza 3 Alto - Posto 350'
    const cap = `${sncf}\nun buono del 25% del prezzo (max 15 €) sugli Intercités. A partire da 30 minuti prima della partenza,`
    expect(extractReceipt(cap).totalAmount).toBe(110)
    const fee = `${sncf}\nA partire da 6 giorni prima della partenza: trattenuta di 19 €. A partire da 30 minuti e`
    expect(extractReceipt(fee).signals.amountAfterTotal).toBe(false)
    // A charge below the total still counts, in a sentence or not.
    expect(extractReceipt(`${sncf}\nYour card ending 1234 was charged 95,00 EUR on 2 February 2026 for this trip`).signals.amountAfterTotal).toBe(true)
    expect(extractReceipt(`${sncf}\nSupplemento 5,00 EUR`).signals.amountAfterTotal).toBe(true)
  })
})

describe('what a review as an attacker found in the twelfth session', () => {
  const now = new Date('2026-03-15T12:00:00Z')
  const approved = (text: string) => judgeReceipt(extractReceipt(text), 92, { reader: 'tesseract', now }).isAcceptable

  it('a Korean rental, fuel or car wash is no taxi: a taxi plate, boarding (not 승차정원) and no rental words', () => {
    const rental = '롯데렌터카 제주지점\n대여 계약 영수증\n차종: 아반떼 CN7\n차량번호: 12하 3456\n승차정원: 5인승\n대여일시: 2026.03.02 10:00\n반납일시: 2026.03.03 10:00\n주행거리: 145.2km\n대여요금 85,000원\n자차보험 15,000원\n합계 100,000원'
    expect(extractReceipt(rental).vendor?.name).not.toBe('Taxi')
    expect(approved(rental)).toBe(false)
    const seats = '영수증\n차량번호: 서울 32 사 1234\n승차정원: 5인승\n주행거리: 5.2 km\n합계 8,700원'
    expect(extractReceipt(seats).vendor?.name).not.toBe('Taxi')
    const returned = '영수증\n차량번호: 서울 32 사 1234\n승차 2026-03-02 10:00\n반납 2026-03-03 10:00\n주행거리: 145.2km\n합계 100,000원'
    expect(extractReceipt(returned).vendor?.name).not.toBe('Taxi')
    const wash = '서울 택시\n영수증\n세차 요금\n일시 2026-03-12 14:05\n합계 8,000원'
    expect(extractReceipt(wash).signals.notATrip?.kind).toBe('other_service')
  })

  it("a European service's name on a page of dollars keeps the page's month-first dates", () => {
    expect(extractReceipt('Addison Lee\nNew York, NY\nDate: 01/03/2026\nFare $22.00\nTotal $26.00').purchaseDate).toBe('2026-01-03')
  })

  it('a refund, an adjusted fare or a tip written as a sentence below the total still counts; a condition does not', () => {
    const waymo = 'Waymo\nYour ride receipt\nMar 12, 2026 at 10:07 AM\nTotal $20.42'
    for (const after of [
      'A refund of $8.00 will be returned to your original method within five business days',
      'Your fare was adjusted to $12.00 after a review of the route taken by your driver',
      'You added a tip of $5.00 for your driver after the ride ended, thank you',
    ]) {
      expect(extractReceipt(`${waymo}\n${after}`).signals.amountAfterTotal).toBe(true)
    }
    expect(extractReceipt(`${waymo}\nIf you cancel within five minutes of the pickup a fee of $5.00 is charged to your card`).signals.amountAfterTotal).toBe(true)
  })

  it('a cap is a word right before an amount with its currency, never a name or a date on the total line', () => {
    expect(extractReceipt('Renfe\nFecha: 12/03/2026\nPrecio  3,00 €\nTotal abono joven  2,00 €   Válido hasta 12/03/2026 23:59').totalAmount).toBe(2)
    expect(extractReceipt('Trenitalia\n12/03/2026\nPrezzo base 25,00 €\nImporto totale 18,90 € valido fino a 14/03/2026').totalAmount).toBe(18.9)
    const waymo = 'Waymo\nMar 12, 2026 at 10:07 AM\nTotal $20.42'
    expect(extractReceipt(`${waymo}\nMax Mustermann Visa •••• 4417 $25.42`).signals.amountAfterTotal).toBe(true)
    expect(extractReceipt(`${waymo}\nTip for Max $5.00`).signals.amountAfterTotal).toBe(true)
  })

  it('a fare table of several rows, or of figures a reader repaired, checks nothing', () => {
    expect(extractReceipt('Lyft\nMar 12, 2026\nFare     Tip     Total\n$10.00     $2.00     $12.00\n$20.00     $3.00     $23.00').signals.totalCheck).not.toBe('sum')
    expect(extractReceipt('Lyft\nMar 12, 2026\nFare     Total\n$2B.51     $2B.51').signals.totalCheck).not.toBe('sum')
  })

  it("a seat's line with a charge in a currency is a charge: \"Seat upgrade $15.00\", \"Coach fare $45.00\"", () => {
    expect(extractReceipt('Amtrak\nMar 12, 2026\nCoach fare $45.00\nTotal $45.00').signals.totalCheck).toBe('sum')
    expect(extractReceipt('Waymo\nMar 12, 2026\nTotal $20.42\nSeat upgrade $15.00').signals.amountAfterTotal).toBe(true)
    // A seat with its number and its price is a charge too.
    expect(extractReceipt('Amtrak\nMar 12, 2026\nFare $30.00\nSeat 12A $15.00\nTotal $45.00').signals.totalCheck).toBe('sum')
  })

  it("Italian and Dutch months only in full: a model's \"Gen 3 2025\" is no date", () => {
    expect(parseDates('Vehicle: Gen 3 2025 e-bike')).toEqual([])
    expect(parseDates('MAG 12 2025')).toEqual([])
    expect(parseDates('12 maart 2026')[0]?.iso).toBe('2026-03-12')
  })

  it("a ticket bought one day for a trip on a later one: its day without a year goes to staff (a real PKP Intercity ticket)", () => {
    const pkp = 'PKP INTERCITY S.A.\n21-06-2024 18:30\nPARAGON FISKALNY\nSuma: PLN 161.18\nBILLET+RESERVATION\n02.07 07.06 WROCLAW GL => BERLIN HBF 02.07 11.06 2'
    const fields = extractReceipt(pkp)
    expect(fields.signals.laterDay).toBe('02.07')
    expect(judgeReceipt(fields, 92, { reader: 'tesseract', now: new Date('2024-06-22T12:00:00Z') }).reasons.join(' ')).toMatch(/later day/)
    // A travel date's own label leaves it alone, and a receipt that is no ticket is not looked at.
    expect(extractReceipt(pkp.replace('21-06-2024 18:30', 'Reisedatum 21-06-2024 18:30')).signals.laterDay).toBeNull()
    expect(extractReceipt('Uber\n21-06-2024 18:30\nTotal PLN 16.18\nPickup 02.07').signals.laterDay).toBeNull()
  })
})

describe("what a second review's attacker found in the twelfth session", () => {
  const now = new Date('2026-03-15T12:00:00Z')
  const approvedAlike = (text: string, at = now) => {
    const reading = (reader: 'tesseract' | 'paddleocr') => ({ reader, text, confidence: 92, fields: extractReceipt({ text, lines: text.split('\n').map((t) => ({ text: t, confidence: 92 })) }) })
    return judgeReadings(reading('tesseract'), reading('paddleocr'), at).verdict.isAcceptable
  }

  it("a cap takes away only the amount right after it, never its line's total", () => {
    expect(extractReceipt('SNCF\nLUNEDI 02 FEBBRAIO 2026\nTariffa base 134,00 EUR\nPrezzo del biglietto : 110,00 EUR   Rimborsabile fino a 110,00 EUR').totalAmount).toBe(110)
    expect(extractReceipt('Transport for London\nContactless journey history 12/03/2026\nOxford Circus to Bank £2.80\nBank to Oxford Circus £2.80\nTotal £5.60  (daily maximum £8.90)').totalAmount).toBe(5.6)
    const db = extractReceipt('DB Fernverkehr AG\nOnline-Ticket\n12.03.2026\nFahrpreis 29,90€\nSumme 19,90€ BahnCard 25: bis zu 10,00€ weniger')
    expect(db.totalAmount).toBe(19.9)
    expect(db.signals.totalCheck).toBe('mismatch')
  })

  it('an amount below the total still counts on a line of points, in a sentence of a refund or an adjusted fare, or as an upgrade whose sign was lost', () => {
    const waymo = 'Waymo\nYour ride receipt\nMar 12, 2026 at 10:07 AM\nTotal $20.42'
    for (const after of [
      'Charged $25.42 to Visa 4417 - you earned 25 points',
      'Your fare was adjusted to $12.00 after a review, as if the driver had taken the shortest route',
      'In case of questions: a refund of $8.00 was issued to you today for the route taken',
      'Coach upgrade 15.00',
    ]) {
      expect(extractReceipt(`${waymo}\n${after}`).signals.amountAfterTotal).toBe(true)
      expect(approvedAlike(`${waymo}\n${after}`)).toBe(false)
    }
    const trenitalia = 'Trenitalia\n12/03/2026\nImporto totale 18,90 €'
    expect(extractReceipt(`${trenitalia}\nSi è proceduto al rimborso di 8,00 € per il ritardo del treno di oggi`).signals.amountAfterTotal).toBe(true)
    // Italian "si" and "se" are seldom "if"; a condition is said before its fee, not after it.
    expect(extractReceipt(`${trenitalia}\nSi è applicata una maggiorazione di 5,00 € per il viaggio notturno di ieri sera`).signals.amountAfterTotal).toBe(true)
    expect(extractReceipt(`${waymo}\nA late night surcharge of $5.00 was added to this trip as you asked, if we read the log right`).signals.amountAfterTotal).toBe(true)
  })

  it("a trip's later day in any form goes to staff: a full date, \"2.7.\", \"02-07\", \"2 Jul\", beside a price, months ahead, or on a booked ride", () => {
    const pkp = 'PKP INTERCITY S.A.\n21-06-2024 18:30\nPARAGON FISKALNY\nSuma: PLN 161.18\nBILLET+RESERVATION\n'
    for (const trip of ['02.07 07.06 WROCLAW GL => BERLIN HBF  PLN 161.18', '02.07.2024 WROCLAW', '2.7. WROCLAW', '02-07 WROCLAW', '2 Jul WROCLAW', '02.09 WROCLAW']) {
      expect(extractReceipt(pkp + trip).signals.laterDay).not.toBeNull()
    }
    // In the page's order: an American ticket's "04/02" is 2 April.
    expect(extractReceipt('Amtrak\nMar 12, 2026\nTrain 171 04/02 Boston\nTotal $45.00').signals.laterDay).toBe('04/02')
    expect(extractReceipt('BlaBlaCar\n21.06.2024\n02.07 07:06 Paris -> Lyon\nTotal 25,00 €').signals.laterDay).toBe('02.07')
    // A ride's receipt prints other full dates that are no trip's (a mail's, a print stamp's).
    expect(extractReceipt('Uber\nMay 10, 2022\nTotal $20.50\nSent May 30, 2022').signals.laterDay).toBeNull()
  })

  it('a European service paid in USD keeps the month first', () => {
    expect(extractReceipt('Addison Lee\nNew York, NY\nDate: 01/03/2026\nFare USD 22.00\nTolls USD 4.00\nTotal USD 26.00').purchaseDate).toBe('2026-01-03')
  })

  it("a street's AVE is no Renfe, and a long name run into another body's name is not that service", () => {
    expect(matchVendor(['MADISON AVE DELI', 'Sandwich $10.00', 'Total $13.00'])).toBeNull()
    expect(matchVendor(['AVE Madrid - Barcelona', 'Total 45,00 €'])?.vendor.name).toBe('Renfe')
    expect(matchVendor(['NEWYORKCITYTRANSITAUTHORITYFEDERALCREDITUNION', 'Loan payment $250.00'])).toBeNull()
  })

  it("Kakao Mobility's couriers, trucks and parking are no Kakao T ride: the company's name alone names no service", () => {
    expect(matchVendor(['카카오모빌리티', '퀵 배송', '합계 12,000원'])).toBeNull()
  })

  it('Dutch May in full', () => {
    expect(parseDates('12 mei 2026')[0]?.iso).toBe('2026-05-12')
  })
})
