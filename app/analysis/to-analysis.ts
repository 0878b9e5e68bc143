/**
 * Pure: what a reader made of a receipt (its fields and verdict, the text it read) as the analysis
 * that is stored. The photo reader and the e-mail reader both end here.
 */
import type { Reading } from './readings'
import { parseDates, type ExtractedReceipt } from './extract'
import { findReferenceNumber, findTripMoment } from './reference'
import type { FreshAnalysis, ReaderName, ReceiptTimings } from './stored-analysis'
import type { Verdict } from './verdict'

const CATEGORY_LABELS = {
  ride_share: 'a rideshare service',
  public_transit: 'public transit',
  electric_vehicle: 'an electric vehicle rental',
  scooter_bike: 'an e-scooter / bike service',
} as const

export function toAnalysis(
  fields: ExtractedReceipt,
  verdict: Verdict,
  ocr: { text: string },
  timings: ReceiptTimings,
  readers: { reader: ReaderName; other: Reading | null } = { reader: 'tesseract', other: null },
): FreshAnalysis {
  const kind = fields.vendor?.kind ?? null
  const preOwned = fields.signals.preOwnedKeywords
  const sustainable = fields.category !== null
  const sustainabilityReasons: string[] = []
  if (fields.category && fields.storeName) {
    sustainabilityReasons.push(`${fields.storeName} is ${CATEGORY_LABELS[fields.category]}`)
  }
  if (fields.category === 'electric_vehicle' && fields.signals.evEvidence.length > 0) {
    sustainabilityReasons.push(`Electric vehicle: ${fields.signals.evEvidence.join(', ')}`)
  }
  return {
    isValid: verdict.isValid,
    storeName: fields.storeName,
    isThriftStore: kind === 'thrift',
    isSustainableStore: sustainable,
    sustainableCategory: fields.category,
    purchaseCategory: fields.category ?? kind,
    category: fields.category,
    purchaseDate: fields.purchaseDate,
    totalAmount: fields.totalAmount,
    currency: fields.currency,
    travelDate: fields.signals.travelDate,
    referenceNumber: findReferenceNumber(ocr.text),
    tripMoment: tripMomentOf(fields.storeName, ocr.text),
    confidence: verdict.confidence,
    reasons: verdict.reasons,
    sustainabilityReasons,
    isAcceptable: verdict.isAcceptable,
    estimatedReward: null,
    testMode: false,
    timeoutFallback: false,
    containsPreOwnedItems: preOwned.length > 0 || kind === 'thrift',
    preOwnedKeywordsFound: preOwned,
    needsManualReview: verdict.needsManualReview,
    paymentMethod: fields.paymentMethod,
    ocrText: ocr.text,
    reader: readers.reader,
    otherReading: readers.other ? { reader: readers.other.reader, ocrText: readers.other.text } : null,
    verifiedSender: null,
    ereceipt: null,
    timings,
  }
}

/** "Uber:2026-07-12 15:06" for a known service that prints its trip's date and minute, else null. */
export function tripMomentOf(storeName: string | null, text: string): string | null {
  if (!storeName) return null
  const moment = findTripMoment(text, (line) => parseDates(line).map((d) => d.iso))
  return moment ? `${storeName}:${moment}` : null
}
