/**
 * Pure: is a signed e-mail the receipt of one completed trip (issue 29)? A service that signs trip
 * receipts also signs food orders, weekly summaries, cancellation and other fee notices, and pass
 * or membership purchases, all with a total and a date. Only a trip earns, so the text must show
 * the shape of one trip (an id, a route, a distance, a duration or a time span) and nothing that
 * makes it one of the other kinds. What is not recognised as a trip does not pay.
 */
export type MessageKind = 'trip' | 'food_order' | 'trip_summary' | 'not_a_payment' | 'fee_only' | 'pass_purchase' | 'not_a_trip'

export type MessageKindResult = { kind: MessageKind; evidence: string | null }

/**
 * Food and grocery delivery, whoever signs it (Uber signs Uber Eats mail as uber.com). Platform
 * names and delivery words only: a ride may well end at a restaurant's address.
 */
export const FOOD = new RegExp(
  [
    String.raw`\b(uber ?eats|postmates|doordash|grubhub|deliveroo|instacart|bolt food|bolt market|lyft eats|delivery fee|delivered to|your (food|meal|grocery) order|courier|order from)\b`,
    // Other platforms, and a delivery in the languages read (issue 37): a service that signs rides
    // signs its food and grocery orders too ("Tu pedido de Bolt", "Tu repartidor…").
    String.raw`\b(glovo|wolt|just eat|lieferando|foodpanda|swiggy|zomato|rappi|ifood)\b`,
    // Grab's meals, groceries and parcels, mailed from grab.com like its rides.
    String.raw`\bgrab ?(food|mart|express)\b`,
    // Korean and Chinese delivery (배달의민족's card slips, 外卖 orders).
    String.raw`배[ \t]*달|外[ \t]*卖`,
    String.raw`\b(tu|su|tus|sus) pedidos?\b|\brepartidor|\bgastos de env[íi]o|\bentrega a domicilio`,
    String.raw`\b(deine|ihre|eure) bestellung|\blieferung|\bliefergeb[üu]hr|\blieferdienst|\bkurier`,
    String.raw`\b(votre|ta) commande\b|\blivraison|\blivreur|\blivreuse`,
    String.raw`\b(il tuo|il vostro|tuo) ordine\b|\bconsegna\b|\bfattorino|\bspese di consegna`,
    String.raw`\b(seu|teu|sua|tua) (pedido|encomenda)\b|\bentregador|\btaxa de entrega|\bestafeta`,
  ].join('|'),
  'iu',
)

/**
 * A statement's words in the languages read (issue 37): a weekly or monthly summary, and a driver's
 * or courier's earnings, which the services also sign ("Wochenübersicht", "résumé hebdomadaire",
 * "resumen semanal", "riepilogo settimanale", "resumo semanal", "your weekly earnings").
 */
const STATEMENT_WORDS = String.raw`(weekly|monthly|yearly|annual|quarterly) (summary|recap|report|statement|activity)|your (week|month|year) (in|with|on)\b|statement period|year in review|activity summary|(your|weekly|monthly|total) earnings|wochen(übersicht|zusammenfassung|bericht)|monats(übersicht|zusammenfassung|bericht)|(récapitulatif|résumé|relevé|bilan) (hebdomadaire|mensuel)|(resumen|informe|extracto) (semanal|mensual)|(riepilogo|resoconto) (settimanale|mensile)|(resumo|relatório) (semanal|mensal)`

/**
 * A Chinese itinerary (行程单) of several trips: DiDi's "共2笔行程，合计365.30元" and Amap's
 * "共计3单行程，合计144.56元" add up every trip of a period, each on its own day. One trip ("共1笔行程")
 * is the receipt of that trip.
 */
const SEVERAL_TRIPS_ZH = tripCountZh(String.raw`(?:[2-9]|[1-9]\d+)`)

/** "共N笔行程", "共计N单行程", "共N个行程" (a misread 単 too), within one line: N is `count`. */
function tripCountZh(count: string): string {
  return String.raw`共[ \t]*计?[ \t]*${count}[ \t]*[笔單单単筆个個][ \t]*行[ \t]*程`
}

/** A statement's own words, without the ride counters a transit card prints ("12 rides this week"). */
export const STATEMENT = new RegExp(String.raw`(?<![\p{L}])(${STATEMENT_WORDS})|${SEVERAL_TRIPS_ZH}`, 'iu')

/** Several trips in one mail: a summary, statement or recap, never a receipt of one trip. */
const SUMMARY = new RegExp(
  String.raw`(?<![\p{L}])(${STATEMENT_WORDS}|(trips|rides) this (week|month|year)|this (week|month)'?s? (trips|rides)|\d+ (trips|rides) (taken|completed|this|last|in))|${SEVERAL_TRIPS_ZH}`,
  'iu',
)

/**
 * A service's own word that this is no payment receipt: Uber's "trip summary" and "charge summary"
 * of a completed trip say "This is not a payment receipt" and that the receipt follows once the
 * payment is processed (decision 112: only that receipt pays).
 */
export const NOT_A_PAYMENT = new RegExp(
  [
    String.raw`\b(?:this\s+is\s+not\s+a\s+(?:payment\s+)?receipt|not\s+a\s+payment\s+receipt|this\s+is\s+not\s+an?\s+(?:invoice|bill))\b`,
    // The same sentence in the languages read (issue 37): a service writes to its riders in theirs.
    String.raw`\bdies\s+ist\s+kein(?:e)?\s+(?:zahlungs)?(?:quittung|beleg|rechnung|bestätigung)`,
    String.raw`\b(?:ceci|cela|ce)\s+n['’]est\s+pas\s+une?\s+(?:reçu|facture|justificatif)`,
    String.raw`\b(?:este|esto|esta)\s+no\s+es\s+una?\s+(?:recibo|factura|comprobante)`,
    String.raw`\b(?:questa|questo)\s+non\s+è\s+una?\s+(?:ricevuta|fattura)`,
    String.raw`\b(?:este|isto|esta)\s+não\s+é\s+uma?\s+(?:recibo|fatura|comprovante)`,
  ].join('|'),
  'iu',
)

/** A charge with no trip behind it: a cancelled trip, a no-show, a fine or a fee added later. */
export const FEE_ONLY = new RegExp(
  [
    String.raw`\b(cancel+ation fee|(trip|ride|booking|reservation|rental) (was |has been )?cancel+ed|you cancel+ed|cancel+ed your (trip|ride|booking|reservation)|no-?show fee|late (return )?fee|damage fee|cleaning fee|lost item fee|parking (fine|violation|fee)|improper parking|citation|penalty fee|chargeback)\b`,
    // A cancellation in the languages read (issue 37).
    String.raw`\b(storno|stornierungs)gebühr|\bfahrt (wurde )?storniert|\bfrais d['’]annulation|\b(course|trajet) annulée?|\b(tarifa|cargo|cuota) (de|por) cancelación|\bviaje cancelado|\b(costo|tariffa|penale) di cancellazione|\bcorsa (annullata|cancellata)|\btaxa de cancelamento|\bviagem cancelada`,
  ].join('|'),
  'iu',
)

/** Subscriptions and memberships: paid for riding later, not a ride. */
const MEMBERSHIP = String.raw`subscription|subscribed|membership|member fee|lime prime|lyft pink|uber one membership|auto-?renew\w*|renews (on|every|automatically)|billing (period|cycle)|plan (renewal|purchase)`
/** ...and passes, bought by e-mail from a ride service (a photographed transit pass is a transit purchase). */
const PASS = new RegExp(
  String.raw`\b(${MEMBERSHIP}|(day|ride|monthly|annual|weekly|\d+[- ]day|\d+[- ]minute|minute|unlimited) pass(es)?|pases?|abono|bono|abo|abonnement|abbonamento|passe|assinatura|suscripci[óo]n|mitgliedschaft|tageskarte|monatskarte)\b`,
  'iu',
)
export const MEMBERSHIP_WORDS = new RegExp(String.raw`\b(${MEMBERSHIP})\b`, 'i')

/** What one trip prints and a pass, a summary or a marketing mail does not. */
const TRIP_SHAPE: Array<[string, RegExp]> = [
  ['trip id', /\b(trip|ride|booking|reservation|rental)\s*(#|(id|number|no|reference|ref|code)\b)/i],
  // "Picked up on 26 August 2025" heads a real Grab ride's receipt.
  ['route', /\b(pick-?up|picked up|drop-?off|dropped off)\b|\S\s+(→|->)\s+\S/i],
  ['distance', /\b\d+(?:[.,]\d+)?\s?(mi|miles|km|kilometers|kilometres)\b/i],
  ['duration', /\b(duration|ride time|trip time|time ridden)\b/i],
  // Not a validity ("Valid 06:00 - 23:59", "Válido", "Gültig", "Valable"): a pass's hours, not a ride.
  ['time span', /^(?!.*\b(?:valid|v[áa]lid[oa]|valable|g[üu]ltig)).*?\b\d{1,2}:\d{2}\s*(?:[AP]M)?\s*(?:–|-|to)\s*\d{1,2}:\d{2}/im],
  // Bike and scooter rides: a start and an end place with their times (Lyft's and Lime's
  // "E 2 St & Ave C  Start 12:37 pm … End 12:46 pm"), or a ride priced by the minute.
  // Not a pass's "Start date … End date": a validity, not a ride.
  ['start and end', /\bstart\b(?!\s*date)[^\n]*\n?[^\n]*\b\d{1,2}:\d{2}\b[\s\S]{0,200}?\bend\b(?!\s*date)[^\n]*\n?[^\n]*\b\d{1,2}:\d{2}\b/i],
  ['ride by the minute', /\b(?:ride|trip|unlock)\b[^\n]{0,40}?\bper\s+min(?:ute)?\b[^\n]{0,20}?\b\d+\s?min/i],
]

/** Whether a text shows one trip: its id, its route, distance, duration or times (TRIP_SHAPE). */
export function showsTrip(text: string): boolean {
  return TRIP_SHAPE.some(([, re]) => re.test(text))
}

/** What makes a text something other than one trip's receipt, whatever else it prints: a food order, a summary of several trips, a fee without a trip. */
export type NotATrip = { kind: 'food_order' | 'trip_summary' | 'fee_only' | 'membership' | 'tax_invoice' | 'other_service'; evidence: string }
type RefusedWords = NotATrip & { kind: Exclude<NotATrip['kind'], 'membership' | 'tax_invoice' | 'other_service'> }

/**
 * A Chinese itinerary (行程单) lists a period's trips. It is one trip's receipt only when it says so,
 * "共1笔行程" (DiDi) or "共计1单行程" (Amap): its count may be worded otherwise ("共2个行程") or
 * misread, and its table of trips is rarely read row by row.
 */
export const ITINERARY_ZH = /行[ \t]*程[ \t]*单/u
export const ONE_TRIP_ZH = new RegExp(tripCountZh('1'), 'u')

/**
 * A Chinese VAT invoice (增值税发票) for rides: dated the day it was issued, and it may cover a month
 * of rides, each of which may be sent on its own receipt or itinerary too. Its total is "价税合计"
 * (amount and tax together), its date "开票日期".
 */
export const TAX_INVOICE_ZH = /价[ \t]*税[ \t]*合[ \t]*计/u
export const INVOICE_DATE_ZH = /开[ \t]*票[ \t]*日[ \t]*期/u

/**
 * The other services of ride-hailing companies, in Chinese and Korean: a designated driver who
 * drives the rider's own car (代驾, 대리운전), freight (货运), fuel (加油, 주유), a car's rental (租车,
 * not 出租车, a taxi; 렌터카), a car wash (洗车, 세차), its repair (정비), parking, and couriers
 * (퀵서비스).
 */
export const OTHER_SERVICE = /代[ \t]*驾|货[ \t]*运|加[ \t]*油|(?<!出)租[ \t]*车|洗[ \t]*车|대리[ \t]*운전|대리[ \t]*기사|카카오[ \t]*T[ \t]*대리|주차[ \t]*(?:요금|장|비)|퀵[ \t]*서비스|렌[터트]카|주유|정비|세차/u

/** The first of those a text shows, in the order the e-mail reader refuses them (photos are sent to staff on it). */
export function notATripWords(text: string): RefusedWords | null {
  const kinds: Array<[RefusedWords['kind'], RegExp]> = [['food_order', FOOD], ['trip_summary', SUMMARY], ['fee_only', FEE_ONLY]]
  for (const [kind, re] of kinds) {
    const m = re.exec(text)
    if (m) return { kind, evidence: m[0] }
  }
  return null
}


export function classifyMessage(input: { subject: string | null; text: string }): MessageKindResult {
  const text = `${input.subject ?? ''}\n${input.text}`
  const hit = (re: RegExp) => re.exec(text)?.[0] ?? null
  const other = notATripWords(text)
  // A food order or a summary says so before anything else; a fee only after "not a payment receipt".
  if (other && other.kind !== 'fee_only') return other
  const notPayment = hit(NOT_A_PAYMENT)
  if (notPayment) return { kind: 'not_a_payment', evidence: notPayment }
  if (other) return other
  const shape = TRIP_SHAPE.find(([, re]) => re.test(text))
  // A ride receipt may mention the rider's pass ("free unlock with Lime Prime"); a pass purchase
  // has no trip in it.
  const pass = hit(PASS)
  if (pass && !shape) return { kind: 'pass_purchase', evidence: pass }
  if (!shape) return { kind: 'not_a_trip', evidence: null }
  return { kind: 'trip', evidence: shape[0] }
}
