/**
 * Realistic HTML receipt e-mails for the e-receipt tests and bench (issue 21), signed with test
 * keys that a local DNS server (dkim-dns.ts) publishes. Layouts, labels and date styles differ per
 * service, as real ones do; none of it is read by any rule except through the extraction rules.
 */
import crypto from 'node:crypto'
import mailauth from 'mailauth'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import type { DkimDns } from './dkim-dns'

/** ERECEIPT_SENDERS for the test services beyond the built-in table (Uber, Lyft, Lime). */
export const TEST_EXTRA_SENDERS = 'Bird=bird.co;Bolt=bolt.eu;Via=ridewithvia.com;Revel=gorevel.com;Citi Bike=citibikenyc.com;Zipcar=zipcar.com'

export type ServiceStyle = {
  service: string
  from: string
  /** The d= domain that signs (may be a subdomain of the From domain, as Uber's mgt.uber.com). */
  signingDomain: string
  selector: string
  /** Header fields the signature covers (Uber leaves Date and Message-ID out). */
  headerList: string[]
  /** Lyft: x= about two hours after sending. */
  expiresAfterMs?: number
  subject: (trip: Trip) => string
  html: (trip: Trip) => string
}

export type Trip = {
  date: Date
  totalCents: number
  items: Array<[string, number]>
  tripId: string
  rider: string
  to: string
  from: string
  pickup: string
  dropoff: string
}

const money = (cents: number, symbol = '$') => `${symbol}${(cents / 100).toFixed(2)}`
const longDate = (d: Date) => d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
const shortDate = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const usDate = (d: Date) => d.toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', timeZone: 'UTC' })
const isoDate = (d: Date) => d.toISOString().slice(0, 10)
const weekday = (d: Date) => d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' })

const rows = (items: Array<[string, number]>, symbol = '$') =>
  items.map(([label, cents]) => `<tr><td style="padding:4px 0">${label}</td><td align="right">${money(cents, symbol)}</td></tr>`).join('')

const shell = (brand: string, body: string, footer: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${brand}</title>
<style>body{font-family:Helvetica,Arial,sans-serif}td{font-size:14px}</style></head>
<body style="margin:0;background:#f6f6f6"><table width="100%" cellpadding="0" cellspacing="0" role="presentation"><tr><td align="center">
<table width="600" cellpadding="0" cellspacing="0" style="background:#fff"><tr><td style="padding:24px">
<img src="https://cdn.example/${brand.toLowerCase().replace(/\s/g, '')}-logo.png" alt="${brand}" width="120">
${body}
<p style="color:#888;font-size:11px">${footer}</p>
</td></tr></table></td></tr></table></body></html>`

export const SERVICE_STYLES: ServiceStyle[] = [
  {
    service: 'Uber',
    from: 'Uber Receipts <noreply@uber.com>',
    signingDomain: 'uber.com',
    selector: 's1',
    headerList: ['from', 'to', 'subject', 'mime-version', 'content-type'],
    subject: (t) => `Your ${weekday(t.date)} evening trip with Uber`,
    html: (t) =>
      shell(
        'Uber',
        `<h1 style="font-size:32px">Total ${money(t.totalCents)}</h1><p>${longDate(t.date)}</p>
<p>Thanks for riding, ${t.rider}</p><p>We hope you enjoyed your ride this evening.</p>
<table width="100%">${rows(t.items)}<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<h3>Payments</h3><table width="100%"><tr><td>Visa ••••4242</td><td align="right">${money(t.totalCents)}</td></tr></table>
<p>UberX &nbsp; 4.21 miles | 17 min</p><p>${t.pickup}</p><p>${t.dropoff}</p><p>Trip ID: ${t.tripId}</p>`,
        'Uber Technologies Inc, 1725 3rd Street, San Francisco, CA 94158',
      ),
  },
  {
    service: 'Lyft',
    from: 'Lyft Receipts <no-reply@lyftmail.com>',
    signingDomain: 'lyftmail.com',
    selector: 'k1',
    headerList: ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type'],
    expiresAfterMs: 2 * 3600_000,
    subject: (t) => `Your ride with Lyft on ${longDate(t.date)}`,
    html: (t) =>
      shell(
        'Lyft',
        `<h2>Thanks for riding with Lyft, ${t.rider}!</h2><p>${longDate(t.date)} at 6:42 PM</p>
<table width="100%"><tr><td colspan="2"><b>Ride details</b></td></tr>${rows(t.items)}
<tr><td><b>Total charged</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<p>Pickup 6:42 PM: ${t.pickup}<br>Drop-off 7:01 PM: ${t.dropoff}</p><p>Ride ID: ${t.tripId}</p><p>Apple Pay (Visa)</p>`,
        'Lyft, Inc. 185 Berry St, Suite 400, San Francisco, CA 94107',
      ),
  },
  {
    service: 'Lime',
    from: 'Lime <no-reply@li.me>',
    signingDomain: 'li.me',
    selector: 'lime2026',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Lime ride receipt',
    html: (t) =>
      shell(
        'Lime',
        `<p>Hi ${t.rider}, thanks for riding Lime!</p><table width="100%"><tr><td>Date</td><td align="right">${shortDate(t.date)}</td></tr>
<tr><td>Vehicle</td><td align="right">E-scooter</td></tr><tr><td>Duration</td><td align="right">14 min</td></tr>
${rows(t.items)}<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<p>Receipt number: ${t.tripId}</p>`,
        'Neutron Holdings, Inc. dba Lime, 85 2nd St, San Francisco, CA',
      ),
  },
  {
    service: 'Bird',
    from: 'Bird <receipts@bird.co>',
    signingDomain: 'bird.co',
    selector: 'bird1',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: (t) => `Bird ride receipt ${usDate(t.date)}`,
    html: (t) =>
      shell(
        'Bird',
        `<h2>Your ride receipt</h2><p>Ride on ${usDate(t.date)}</p><table width="100%">${rows(t.items)}
<tr><td><b>Amount charged</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<p>Ride ID ${t.tripId}</p><p>Paid with Mastercard ending 5100</p>`,
        'Bird Global, Inc., Miami, FL',
      ),
  },
  {
    service: 'Bolt',
    from: 'Bolt <receipts@bolt.eu>',
    signingDomain: 'bolt.eu',
    selector: 'mail',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Bolt ride receipt',
    html: (t) =>
      shell(
        'Bolt',
        `<p>Thanks for riding with Bolt</p><p>${shortDate(t.date)}, 21:14</p><table width="100%">${rows(t.items, '€')}
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents, '€')}</b></td></tr></table>
<p>Order number: ${t.tripId}</p><p>${t.pickup} → ${t.dropoff}</p>`,
        'Bolt Operations OÜ, Vana-Lõuna 15, Tallinn 10134, Estonia',
      ),
  },
  {
    service: 'Via',
    from: 'Via <receipts@ridewithvia.com>',
    signingDomain: 'ridewithvia.com',
    selector: 'v1',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Via ride receipt',
    html: (t) =>
      shell(
        'Via',
        `<p>Hi ${t.rider},</p><p>Here is your receipt for your shared ride on ${isoDate(t.date)}.</p><table width="100%">${rows(t.items)}
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Booking reference: ${t.tripId}</p>`,
        'Via Transportation, Inc., New York, NY',
      ),
  },
  {
    service: 'Revel',
    from: 'Revel <hello@gorevel.com>',
    signingDomain: 'gorevel.com',
    selector: 'rv',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Revel rideshare receipt',
    html: (t) =>
      shell(
        'Revel',
        `<h2>All-electric rideshare</h2><p>${longDate(t.date)}</p><table width="100%">${rows(t.items)}
<tr><td><b>Total paid</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Trip # ${t.tripId}</p>`,
        'Revel Transit Inc., Brooklyn, NY',
      ),
  },
  {
    service: 'Citi Bike',
    from: 'Citi Bike <receipts@citibikenyc.com>',
    signingDomain: 'citibikenyc.com',
    selector: 'cb',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Citi Bike ride',
    html: (t) =>
      shell(
        'Citi Bike',
        `<p>Thanks for riding Citi Bike, ${t.rider}.</p><table width="100%"><tr><td>Date</td><td align="right">${longDate(t.date)}</td></tr>
<tr><td>Bike</td><td align="right">Ebike</td></tr>${rows(t.items)}<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<p>Trip ID: ${t.tripId}</p>`,
        'Lyft Bikes and Scooters, LLC, Brooklyn, NY',
      ),
  },
  {
    service: 'Zipcar',
    from: 'Zipcar <receipts@zipcar.com>',
    signingDomain: 'zipcar.com',
    selector: 'zc',
    headerList: ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'],
    subject: () => 'Your Zipcar trip receipt',
    html: (t) =>
      shell(
        'Zipcar',
        `<p>Your trip in Tesla Model 3 (electric) has ended.</p><p>${longDate(t.date)}, 9:00 AM – 11:00 AM</p><table width="100%">${rows(t.items)}
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Reservation number: ${t.tripId}</p>`,
        'Zipcar, Inc., Boston, MA',
      ),
  },
]

export function styleOf(service: string): ServiceStyle {
  const style = SERVICE_STYLES.find((s) => s.service === service)
  if (!style) throw new Error(`No e-receipt style for ${service}`)
  return style
}

/** A trip on `date` with items that add up to the total. */
export function makeTrip(seed: number, date: Date, to = `rider${seed}@example.org`): Trip {
  const rnd = (n: number) => Math.abs(Math.sin(seed * 97.13 + n * 13.7)) % 1
  const fare = 300 + Math.floor(rnd(1) * 3500)
  const fee = 100 + Math.floor(rnd(2) * 300)
  const tax = Math.floor(rnd(3) * 150)
  return {
    date,
    totalCents: fare + fee + tax,
    items: [
      ['Trip fare', fare],
      ['Booking fee', fee],
      ['Taxes', tax],
    ],
    // Services print long ids: Uber a UUID, Lyft a long number, others letters and digits.
    tripId: crypto.createHash('sha256').update(`trip-${seed}`).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, '$1-$2-$3-$4-$5').toUpperCase(),
    rider: ['Alex', 'Sam', 'Priya', 'Jordan', 'Mei', 'Luca'][seed % 6],
    to,
    from: '',
    pickup: `${100 + (seed % 800)} Market St, San Francisco, CA`,
    dropoff: `${10 + (seed % 90)} Mission St, San Francisco, CA`,
  }
}

export type TestKeys = { privateKey: string; publicKeyDer: string }
const keyCache = new Map<string, TestKeys>()

export function testKey(name: string, bits = 2048): TestKeys {
  const cacheKey = `${name}:${bits}`
  let keys = keyCache.get(cacheKey)
  if (!keys) {
    const pair = crypto.generateKeyPairSync('rsa', { modulusLength: bits })
    keys = {
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyDer: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    }
    keyCache.set(cacheKey, keys)
  }
  return keys
}

/** Publish `selector._domainkey.domain` for a test key. */
export function publishKey(dns: DkimDns, domain: string, selector: string, keys: TestKeys) {
  dns.publish(`${selector}._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${keys.publicKeyDer}`)
}

/** The unsigned RFC 5322 message for a trip. */
export async function composeReceipt(style: ServiceStyle, trip: Trip, sentAt: Date): Promise<Buffer> {
  const html = style.html(trip)
  const composer = new MailComposer({
    from: style.from,
    to: trip.to,
    subject: style.subject(trip),
    date: sentAt,
    messageId: `<${crypto.randomUUID()}@${style.signingDomain}>`,
    html,
    text: html.replace(/<[^>]+>/g, ' ').replace(/[ \t]+/g, ' '),
  })
  return composer.compile().build()
}

export type SignOptions = { domain: string; selector: string; privateKey: string; headerList: string[]; signTime?: Date; expires?: Date; maxBodyLength?: number }

export async function signMessage(raw: Buffer, opts: SignOptions): Promise<Buffer> {
  const result = await mailauth.dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    // Always a time of our own: without one mailauth writes t= from the clock twice, once into the
    // header it signs and once into the header it emits, and when a half second turns in between the
    // two differ and the signature does not verify (about 1 in 1,000 signatures; a flaky test).
    signTime: opts.signTime ?? new Date(),
    expires: opts.expires,
    // mailauth reads a colon-separated string; an array is ignored and every header gets signed,
    // which hid the unsigned-To and unsigned-Date cases.
    headerList: opts.headerList.join(':'),
    signatureData: [{ signingDomain: opts.domain, selector: opts.selector, privateKey: opts.privateKey, maxBodyLength: opts.maxBodyLength }],
  } as never)
  const { signatures, errors } = result as unknown as { signatures: string; errors: unknown[] }
  if (errors?.length) throw new Error(`DKIM signing failed: ${JSON.stringify(errors)}`)
  return Buffer.concat([Buffer.from(signatures), raw])
}

/** A signed receipt e-mail of `service` for `trip`, with its key published on `dns`. */
export async function signedReceipt(dns: DkimDns, service: string, trip: Trip, sentAt = new Date(trip.date.getTime() + 3600_000)) {
  const style = styleOf(service)
  const keys = testKey(style.signingDomain)
  publishKey(dns, style.signingDomain, style.selector, keys)
  const raw = await composeReceipt(style, trip, sentAt)
  return signMessage(raw, {
    domain: style.signingDomain,
    selector: style.selector,
    privateKey: keys.privateKey,
    headerList: style.headerList,
    signTime: sentAt,
    expires: style.expiresAfterMs ? new Date(sentAt.getTime() + style.expiresAfterMs) : undefined,
  })
}

/** The receipt forwarded "as attachment" by its recipient, as Gmail and Outlook do. */
export async function forwardAsAttachment(original: Buffer, from: string, to: string): Promise<Buffer> {
  const composer = new MailComposer({
    from,
    to,
    subject: 'Fwd: receipt',
    text: 'Forwarded as attachment.',
    attachments: [{ filename: 'receipt.eml', content: original, contentType: 'message/rfc822' }],
  })
  return composer.compile().build()
}

/** The receipt forwarded inline: its text quoted in a new, unsigned message. */
export async function forwardInline(original: Buffer, from: string, to: string): Promise<Buffer> {
  const body = original.toString('utf8').split(/\r?\n\r?\n/).slice(1).join('\n\n').replace(/<[^>]+>/g, ' ')
  const composer = new MailComposer({
    from,
    to,
    subject: 'Fwd: Your trip with Uber',
    text: `---------- Forwarded message ---------\nFrom: Uber Receipts <noreply@uber.com>\nDate: today\n\n${body}`,
  })
  return composer.compile().build()
}

// ---------------------------------------------------------------------------
// Variants that must never pay: each is what someone without the sender's key can make.
// ---------------------------------------------------------------------------

/** The signed e-mail with its total changed after signing (in every part that prints it). */
export function tamperTotal(raw: Buffer, trip: Trip): Buffer {
  const from = (trip.totalCents / 100).toFixed(2)
  const to = ((trip.totalCents + 5000) / 100).toFixed(2)
  const text = raw.toString('utf8')
  if (!text.includes(from)) throw new Error('The total is not printed plainly in this e-mail')
  return Buffer.from(text.split(from).join(to), 'utf8')
}

/** The same receipt text, From the service, but signed by a domain the attacker owns. */
export async function resignedByOther(dns: DkimDns, service: string, trip: Trip, attackerDomain = 'rides-receipts.example') {
  const style = styleOf(service)
  const keys = testKey(attackerDomain)
  publishKey(dns, attackerDomain, 'x1', keys)
  const raw = await composeReceipt(style, trip, new Date(trip.date.getTime() + 3600_000))
  return signMessage(raw, { domain: attackerDomain, selector: 'x1', privateKey: keys.privateKey, headerList: style.headerList })
}

/** Signed with l= (body length) covering the original body, then another part appended after it. */
export async function lengthExtended(dns: DkimDns, service: string, trip: Trip) {
  const style = styleOf(service)
  const keys = testKey(style.signingDomain)
  publishKey(dns, style.signingDomain, style.selector, keys)
  const raw = await composeReceipt(style, trip, new Date(trip.date.getTime() + 3600_000))
  const bodyStart = raw.indexOf('\r\n\r\n') + 4
  const signed = await signMessage(raw, {
    domain: style.signingDomain,
    selector: style.selector,
    privateKey: keys.privateKey,
    headerList: style.headerList,
    maxBodyLength: raw.length - bodyStart,
  })
  const extra = `\r\n<p>Total ${money(trip.totalCents + 9900)}</p>\r\n`
  return Buffer.concat([signed, Buffer.from(extra)])
}

/** A real signature over a key of `bits` bits (RFC 8301: at least 1024). */
export async function weakKeyReceipt(dns: DkimDns, service: string, trip: Trip, bits = 512) {
  const style = styleOf(service)
  const keys = testKey(`${style.signingDomain}-weak`, bits)
  publishKey(dns, style.signingDomain, 'weak', keys)
  const raw = await composeReceipt(style, trip, new Date(trip.date.getTime() + 3600_000))
  return signMessage(raw, { domain: style.signingDomain, selector: 'weak', privateKey: keys.privateKey, headerList: style.headerList })
}

/** A second From header added on top of a signed e-mail (the signature covers the bottom one). */
export function withSecondFrom(raw: Buffer, from = 'Uber Receipts <noreply@uber.com>'): Buffer {
  return Buffer.concat([Buffer.from(`From: ${from}\r\n`), raw])
}

/** Signed by one registered service's domain with a From: of another service. */
export async function unalignedReceipt(dns: DkimDns, trip: Trip) {
  const uber = styleOf('Uber')
  const lyft = styleOf('Lyft')
  const keys = testKey(lyft.signingDomain)
  publishKey(dns, lyft.signingDomain, lyft.selector, keys)
  const raw = await composeReceipt(uber, trip, new Date(trip.date.getTime() + 3600_000))
  return signMessage(raw, { domain: lyft.signingDomain, selector: lyft.selector, privateKey: keys.privateKey, headerList: uber.headerList })
}

/** A signed e-mail from a service that is not a receipt (no total, no date). */
export async function signedNewsletter(dns: DkimDns, service = 'Uber') {
  const style = styleOf(service)
  const keys = testKey(style.signingDomain)
  publishKey(dns, style.signingDomain, style.selector, keys)
  const composer = new MailComposer({
    from: style.from,
    to: 'rider@example.org',
    subject: 'New in your city: scheduled rides',
    html: shell(style.service, '<h1>Plan ahead</h1><p>Schedule your next ride up to 30 days in advance.</p>', 'Unsubscribe'),
  })
  const raw = await composer.compile().build()
  return signMessage(raw, { domain: style.signingDomain, selector: style.selector, privateKey: keys.privateKey, headerList: style.headerList })
}

// ---------------------------------------------------------------------------
// Signed by a registered transport service, but not the receipt of a completed trip (issue 29):
// real services send these from the same domains, with a total and a date.
// ---------------------------------------------------------------------------

export type NonTripKind = 'food_order' | 'trip_summary' | 'fee_only' | 'pass_purchase'

type NonTripSample = { name: string; service: string; kind: NonTripKind; subject: string; html: (t: Trip) => string }

export const NON_TRIP_SAMPLES: NonTripSample[] = [
  {
    name: 'an Uber Eats order',
    service: 'Uber',
    kind: 'food_order',
    subject: 'Your Thursday evening order with Uber Eats',
    html: (t) =>
      shell(
        'Uber Eats',
        `<h1>Total ${money(t.totalCents)}</h1><p>${longDate(t.date)}</p><p>Thanks for ordering, ${t.rider}</p>
<p>Here's your receipt for Golden Dragon Kitchen.</p><table width="100%"><tr><td>1 Kung Pao Chicken</td><td align="right">${money(t.totalCents - 499)}</td></tr>
<tr><td>Delivery Fee</td><td align="right">$2.49</td></tr><tr><td>Service Fee</td><td align="right">$2.50</td></tr>
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Delivered to ${t.dropoff}</p><p>Order ID: ${t.tripId}</p>`,
        'Uber Technologies Inc, 1725 3rd Street, San Francisco, CA 94158',
      ),
  },
  {
    name: 'an Uber weekly summary',
    service: 'Uber',
    kind: 'trip_summary',
    subject: 'Your weekly summary',
    html: (t) =>
      shell(
        'Uber',
        `<h2>Your week with Uber</h2><p>Week ending ${longDate(t.date)}</p><p>5 trips taken, 38.2 miles</p>
<table width="100%"><tr><td>Mon</td><td align="right">$12.40</td></tr><tr><td>Wed</td><td align="right">$9.85</td></tr>
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>`,
        'Uber Technologies Inc, 1725 3rd Street, San Francisco, CA 94158',
      ),
  },
  {
    name: 'a Lyft monthly statement',
    service: 'Lyft',
    kind: 'trip_summary',
    subject: 'Your Lyft monthly ride summary',
    html: (t) =>
      shell(
        'Lyft',
        `<h2>Your month in rides</h2><p>Statement period ending ${longDate(t.date)}</p><p>You took 11 rides this month.</p>
<table width="100%"><tr><td><b>Total charged</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>`,
        'Lyft, Inc. 185 Berry St, Suite 400, San Francisco, CA 94107',
      ),
  },
  {
    name: 'an Uber cancellation fee',
    service: 'Uber',
    kind: 'fee_only',
    subject: 'Your trip was canceled',
    html: (t) =>
      shell(
        'Uber',
        `<h1>Total ${money(t.totalCents)}</h1><p>${longDate(t.date)}</p><p>Your driver was on the way when you canceled. A cancellation fee was charged.</p>
<table width="100%"><tr><td>Cancellation fee</td><td align="right">${money(t.totalCents)}</td></tr>
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Trip ID: ${t.tripId}</p><p>${t.pickup}</p>`,
        'Uber Technologies Inc, 1725 3rd Street, San Francisco, CA 94158',
      ),
  },
  {
    name: 'a Bird parking fine',
    service: 'Bird',
    kind: 'fee_only',
    subject: 'Bird: improper parking',
    html: (t) =>
      shell(
        'Bird',
        `<h2>A fee was added to your account</h2><p>On ${usDate(t.date)} your scooter was left blocking the sidewalk.</p>
<table width="100%"><tr><td>Parking violation</td><td align="right">${money(t.totalCents)}</td></tr>
<tr><td><b>Amount charged</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Ride ID ${t.tripId}</p>`,
        'Bird Global, Inc., Miami, FL',
      ),
  },
  {
    name: 'a Lime Prime pass',
    service: 'Lime',
    kind: 'pass_purchase',
    subject: 'Your Lime Prime receipt',
    html: (t) =>
      shell(
        'Lime',
        `<p>Hi ${t.rider}, thanks for joining Lime Prime!</p><p>Enjoy free unlocks and reserved scooters on every ride.</p>
<table width="100%"><tr><td>Date</td><td align="right">${shortDate(t.date)}</td></tr><tr><td>Lime Prime (monthly)</td><td align="right">${money(t.totalCents)}</td></tr>
<tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table><p>Your plan renews automatically each month.</p><p>Receipt number: ${t.tripId}</p>`,
        'Neutron Holdings, Inc. dba Lime, 85 2nd St, San Francisco, CA',
      ),
  },
  {
    name: 'a Citi Bike annual membership',
    service: 'Citi Bike',
    kind: 'pass_purchase',
    subject: 'Welcome to your Citi Bike membership',
    html: (t) =>
      shell(
        'Citi Bike',
        `<p>Thanks for becoming a member, ${t.rider}.</p><table width="100%"><tr><td>Date</td><td align="right">${longDate(t.date)}</td></tr>
<tr><td>Annual membership</td><td align="right">${money(t.totalCents)}</td></tr><tr><td><b>Total</b></td><td align="right"><b>${money(t.totalCents)}</b></td></tr></table>
<p>Unlimited 45-minute classic bike rides for a year.</p>`,
        'Lyft Bikes and Scooters, LLC, Brooklyn, NY',
      ),
  },
]

/** A non-trip mail of `sample`, signed by its service the way that service signs its receipts. */
export async function signedNonTrip(dns: DkimDns, sample: NonTripSample, trip: Trip) {
  const style = styleOf(sample.service)
  return signedVariant(dns, { ...style, subject: () => sample.subject, html: sample.html }, trip)
}

/** A receipt of `service` signed over other header fields than the service's own (`headerList`). */
export async function signedWithHeaders(dns: DkimDns, service: string, trip: Trip, headerList: string[], sentAt?: Date) {
  return signedVariant(dns, { ...styleOf(service), headerList }, trip, sentAt)
}

async function signedVariant(dns: DkimDns, style: ServiceStyle, trip: Trip, sentAt = new Date(trip.date.getTime() + 3600_000)) {
  const keys = testKey(style.signingDomain)
  publishKey(dns, style.signingDomain, style.selector, keys)
  const raw = await composeReceipt(style, trip, sentAt)
  return signMessage(raw, { domain: style.signingDomain, selector: style.selector, privateKey: keys.privateKey, headerList: style.headerList, signTime: sentAt })
}

/** Replace the value of a (top-level) header field after signing. */
export function rewriteHeader(raw: Buffer, name: string, value: string): Buffer {
  const text = raw.toString('utf8')
  const end = text.indexOf('\r\n\r\n')
  const head = text.slice(0, end).replace(new RegExp(`^${name}:[^\\r\\n]*(\\r\\n[ \\t][^\\r\\n]*)*`, 'im'), `${name}: ${value}`)
  return Buffer.from(head + text.slice(end), 'utf8')
}

/** `count` DKIM-Signature fields of unregistered domains on top of a signed receipt, each a lookup. */
export function withFakeSignatures(raw: Buffer, count: number): Buffer {
  const fake = Array.from({ length: count }, (_, i) =>
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=fake${i}.example; s=s${i}; h=from:to; bh=${Buffer.alloc(32, i).toString('base64')}; b=${Buffer.alloc(64, i).toString('base64')}\r\n`,
  ).join('')
  return Buffer.concat([Buffer.from(fake), raw])
}

/** A second Content-Type (or Content-Transfer-Encoding) added after signing. */
export function withSecondHeader(raw: Buffer, field: string): Buffer {
  return Buffer.concat([Buffer.from(`${field}\r\n`), raw])
}
