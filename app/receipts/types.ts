/** The receipt analysis result (spec §3, fuller shape). Plain file so UI code can import the type. */
import type { PaymentMethod } from '~/receipts/extract'
import type { TransportCategory } from '~/receipts/vendors'

export type { PaymentMethod } from '~/receipts/extract'
export type { TransportCategory } from '~/receipts/vendors'

/**
 * Who read the receipt: the two OCR engines for photos (issue 13; tesseract reads every photo,
 * PaddleOCR those tesseract reads badly), or 'email' for the signed text of an e-receipt (issue 21).
 */
export type ReaderName = 'tesseract' | 'paddleocr' | 'email'

/** What a verified e-receipt rests on (issue 21), kept with its analysis. */
export type EReceiptFacts = {
  /** The DKIM signing domain (d=) that verified. */
  domain: string
  /** sha256 of the signature: a verified e-mail pays once across all wallets. */
  signatureId: string
  /** "Uber:TRIPID" from the signed text, when it prints one. */
  tripKey: string | null
  /** Hash of the receipt's To address, bound to the first wallet that claims it. */
  recipientHash: string | null
  /** The signature's x= had passed (accepted for receipts inside the window; decision 090). */
  signatureExpired: boolean
  signedHeaders: string[]
  subject: string | null
  from: string | null
  sentAt: string | null
  /** The original arrived attached to a forward. */
  forwarded: boolean
}

export type ReceiptTimings = {
  validateMs: number
  preprocessMs: number
  ocrMs: number
  extractMs: number
  totalMs: number
  /** The second reader's time, included in ocrMs, when it ran. */
  secondReaderMs?: number
}

export type ReceiptAnalysis = {
  isValid: boolean
  storeName: string | null
  isThriftStore: boolean
  /** The merchant is an eligible sustainable-transport service (for car rentals: an EV was shown). */
  isSustainableStore: boolean
  sustainableCategory: TransportCategory | null
  /** What was bought: a transport category, or the merchant kind ('fuel', 'grocery', 'thrift', ...). */
  purchaseCategory: string | null
  category: TransportCategory | null
  /** YYYY-MM-DD */
  purchaseDate: string | null
  totalAmount: number | null
  /** The trip / order / receipt number printed on it (normalised), when there is one. */
  referenceNumber: string | null
  /** 0..1 */
  confidence: number
  reasons: string[]
  sustainabilityReasons: string[]
  /** Eligible and read cleanly: may be rewarded without review. Never true with needsManualReview. */
  isAcceptable: boolean
  /** The reward is computed by the reward rules, not by analysis. */
  estimatedReward: null
  testMode: false
  timeoutFallback: false
  containsPreOwnedItems: boolean
  preOwnedKeywordsFound: string[]
  needsManualReview: boolean
  paymentMethod: PaymentMethod
  /** Raw OCR text of the reading that decided, for staff review. */
  ocrText: string
  /** Which reader's reading decided (issue 13): tesseract, or PaddleOCR for photos tesseract read badly. */
  reader: ReaderName
  /** The other reader's text when both read the photo, for staff review. */
  otherReading: { reader: ReaderName; ocrText: string } | null
  /** The verified signing domain of an e-receipt ("uber.com"), null for a photo. */
  verifiedSender: string | null
  ereceipt: EReceiptFacts | null
  /**
   * Issue 23: the readings fell short and the photo itself is poor (blurred, dark, far, glare):
   * what the user should do ("Too blurry: hold steady and retake"). Retaking is offered before
   * staff review. Absent on analyses stored before it existed and on e-receipts.
   */
  captureAdvice?: string | null
  timings: ReceiptTimings
}
