import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** ISO-8601 strings in UTC: portable between SQLite and PostgreSQL and sortable as text. */
type Timestamp = string
/** 0/1 integers: the same column type on SQLite and PostgreSQL. */
type Flag = number

export interface UserTable {
  id: Generated<number>
  wallet_address: string
  display_name: string | null
  referral_code: string
  referred_by_user_id: number | null
  current_streak: Generated<number>
  best_streak: Generated<number>
  last_streak_day: string | null
  notifications_enabled: Generated<Flag>
  biometric_enabled: Generated<Flag>
  /** When the review and payout notices were last dismissed (issue 24); null: never. */
  notices_seen_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AuthChallengeTable {
  id: Generated<number>
  nonce: string
  content: string
  expires_at: Timestamp
  used_at: Timestamp | null
  created_at: Timestamp
}

export interface SessionTable {
  id: string
  user_id: number
  expires_at: Timestamp
  created_at: Timestamp
}

export type ReceiptStatus = 'approved' | 'pending_review' | 'rejected'

export interface ReceiptTable {
  id: Generated<number>
  user_id: number
  image_hash: string
  image_phash: string | null
  image: ColumnType<Buffer | null, Buffer | null, Buffer | null>
  image_mime: string | null
  store_name: string | null
  category: string | null
  amount_cents: number | null
  purchase_date: string | null
  /** What the user submitted (possibly corrected); the analysis stays in analysis_json. */
  user_store_id: number | null
  user_category: string | null
  user_amount_cents: number | null
  user_purchase_date: string | null
  analysis_json: string
  status: ReceiptStatus
  /** The trip / order / receipt number the analysis read (normalised), when printed. */
  reference_number: string | null
  /** "Uber:2026-07-12 15:06": the trip's printed date and minute, a duplicate key per user (migration 0022). */
  trip_moment: Generated<string | null>
  review_reasons_json: string | null
  /** JSON ReviewSignals: why a receipt deserves a closer look (wallet age, invitations, copies). */
  review_signals_json: string | null
  reject_reason: string | null
  reward_milli: number | null
  reward_details_json: string | null
  reviewed_by_user_id: number | null
  reviewed_at: Timestamp | null
  created_at: Timestamp
  /** The verified DKIM signing domain of an e-receipt (issue 21); null for a photo. */
  verified_sender: Generated<string | null>
  /** Staff rejected this receipt as fraud (issue 31): the wallet loses its standing. */
  rejected_as_fraud: Generated<Flag>
  /** Keyed hashes of the browser install and the client address it came from (issue 31), for staff. */
  install_hash: Generated<string | null>
  address_hash: Generated<string | null>
  /** A staff audit of an automatic photo approval (issue 38, decision 109); null: not sampled. */
  audit_status: Generated<AuditStatus | null>
  /** Why staff see it: a sample, or a verified e-receipt of the same trip from another wallet. */
  audit_reason: Generated<string | null>
  audit_decided_at: Generated<Timestamp | null>
  /** The photo's thumbnail for My Receipts, made once on first request (issue 38). */
  thumbnail: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>
}

export type AuditStatus = 'pending' | 'cleared' | 'rejected'

export interface ReceiptAnalysisTable {
  id: Generated<number>
  user_id: number
  image_hash: string
  analysis_json: string
  image: ColumnType<Buffer | null, Buffer | null, Buffer | null>
  image_mime: string | null
  image_phash: string | null
  created_at: Timestamp
}

export type TransactionType =
  | 'receipt_verification'
  | 'store_addition'
  | 'token_redemption'
  | 'token_claim'
  | 'achievement_reward'
  | 'sustainability_creator'
  | 'sustainability_app'
  | 'admin_action'
  | 'referral_reward'

/** completed: credited off-chain; pending: waiting for the chain; confirmed: on-chain; failed: not counted. */
export type TransactionStatus = 'completed' | 'pending' | 'confirmed' | 'failed'

export interface TransactionTable {
  id: Generated<number>
  user_id: number
  type: TransactionType
  /** Signed integer milli-B3TR (1 B3TR = 1000); a claim is negative. */
  amount_milli: number
  description: string
  status: TransactionStatus
  tx_hash: string | null
  /** Unique: the same reward, approval or claim can never be written twice. */
  idempotency_key: string
  receipt_id: number | null
  store_submission_id: number | null
  referral_id: number | null
  created_at: Timestamp
  /** From when the entry counts towards the claimable balance (issue 38); null: at once. */
  claimable_at: Generated<Timestamp | null>
  /** The photo receipt whose hold this credit waits on (its reward, first-receipt bonus, the referrer's reward). */
  hold_receipt_id: Generated<number | null>
  /** A reversal: the entry it reverses (written once, key reversal:<id>). */
  reverses_id: Generated<number | null>
}

export interface ActionSlotTable {
  user_id: number
  day: string
  slot: number
  kind: 'receipt' | 'store_submission'
  ref_id: number | null
  created_at: Timestamp
}

export interface TransportationServiceTable {
  id: Generated<number>
  name: string
  category: string
}

export interface StoreTable {
  id: Generated<number>
  name: string
  address: string
  city: string
  state: string
  latitude: number | null
  longitude: number | null
  store_type: string
  verified: Generated<Flag>
  added_by_user_id: number | null
  is_demo: Generated<Flag>
  created_at: Timestamp
}

export type SubmissionStatus = 'pending' | 'approved' | 'rejected'

export interface StoreSubmissionTable {
  id: Generated<number>
  user_id: number
  source: 'external_form' | 'in_app'
  name: string | null
  address: string | null
  city: string | null
  state: string | null
  store_type: string | null
  description: string
  status: SubmissionStatus
  reject_reason: string | null
  store_id: number | null
  reviewed_by_user_id: number | null
  reviewed_at: Timestamp | null
  created_at: Timestamp
}

export interface ReferralTable {
  id: Generated<number>
  referrer_user_id: number
  referred_user_id: number
  code: string
  rewarded_at: Timestamp | null
  created_at: Timestamp
}

/**
 * pending → signed (raw tx stored, nothing sent yet) → sent → confirmed | reverted; a signed or
 * sent transaction that the chain can no longer include becomes expired and is signed anew;
 * failed: refused for good before sending. reverted and failed return the claim to the balance.
 */
export type PayoutStatus = 'pending' | 'signed' | 'sent' | 'confirmed' | 'reverted' | 'expired' | 'failed'
/** Every payout status, in the order operator pages list them. */
export const PAYOUT_STATUSES: PayoutStatus[] = ['pending', 'signed', 'sent', 'expired', 'failed', 'reverted', 'confirmed']

export interface PayoutTable {
  id: Generated<number>
  user_id: number
  transaction_id: number
  amount_milli: number
  status: PayoutStatus
  /** The current transaction's id once signed (a real id, never made up); kept when confirmed. */
  tx_hash: string | null
  /** The last error: what holds the payout, or why it failed. */
  error: string | null
  raw_tx: string | null
  block_ref: string | null
  expiration: number | null
  gas: number | null
  signings: Generated<number>
  /** JSON array of earlier transaction ids that expired without being included. */
  previous_tx_ids: string | null
  attempts: Generated<number>
  next_attempt_at: Timestamp | null
  lease_owner: string | null
  lease_until: Timestamp | null
  signed_at: Timestamp | null
  sent_at: Timestamp | null
  confirmed_at: Timestamp | null
  block_number: number | null
  receipt_count: Generated<number>
  carbon_grams: Generated<number>
  water_liters: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ChainCheckTable {
  name: string
  ok: Flag
  details_json: string | null
  error: string | null
  checked_at: Timestamp
}

export interface FeedbackTable {
  id: Generated<number>
  user_id: number | null
  type: string
  text: string
  email: string | null
  created_at: Timestamp
}

export interface AuditLogTable {
  id: Generated<number>
  admin_user_id: number
  action: string
  target_type: string
  target_id: number | null
  details_json: string | null
  created_at: Timestamp
}

/** Fixed-window request counter (issue 10): one row per limit key and window. */
export interface RateLimitTable {
  key: string
  window_start: Timestamp
  count: number
  /** The window's end: rows past it are deleted by housekeeping. */
  expires_at: Timestamp
}

/** A debug log a signed-in user sent to support (issue 14); purged after 30 days. */
export interface DebugLogTable {
  id: Generated<number>
  user_id: number
  user_agent: string | null
  test_type: string | null
  /** When the browser says it sent the log (ISO); created_at is the server's time. */
  client_timestamp: string | null
  /** JSON array of strings. */
  lines_json: string
  line_count: number
  created_at: Timestamp
}

/** A receipt photo waiting for (or analysed by) a separate analysis worker (issue 12). */
export interface AnalysisJobTable {
  id: Generated<number>
  user_id: number
  image: Buffer
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  attempts: Generated<number>
  lease_owner: string | null
  lease_until: Timestamp | null
  /** The analysis, JSON, once done. */
  analysis_json: string | null
  error: string | null
  created_at: Timestamp
  finished_at: Timestamp | null
}

/** One verified e-receipt's signature or trip id, claimed once across all wallets (issue 21). */
export interface EReceiptClaimTable {
  key: string
  receipt_id: number
  created_at: Timestamp
}

/** The mailbox (hashed To address) e-receipts were sent to, bound to the first wallet that claimed one. */
export interface EReceiptMailboxTable {
  address_hash: string
  user_id: number
  created_at: Timestamp
  updated_at: Timestamp
}

/** One delivery of the inbound webhook (issue 29), answered once. */
export interface InboundDeliveryTable {
  token: string
  request_hash: string
  status: number | null
  response_json: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A user's personal forwarding address: `${token}@INBOUND_DOMAIN`. */
export interface InboundAddressTable {
  token: string
  user_id: number
  created_at: Timestamp
}

/** What became of a forwarded e-receipt (issue 32), shown once on Home. */
export interface ForwardedOutcomeTable {
  id: Generated<number>
  user_id: number
  receipt_id: number | null
  outcome: 'approved' | 'pending_review' | 'refused'
  message: string | null
  /** A refusal's kind and UTC day ("duplicate:2026-11-26"): one notice per kind per day (migration 0016). */
  refusal_key: string | null
  created_at: Timestamp
}

/** A mail provider's forwarding confirmation that reached a rider's address (issue 39), for its owner alone. */
export interface ForwardingConfirmationTable {
  id: Generated<number>
  user_id: number
  /** "gmail" */
  provider: string
  code: string | null
  /** A bearer credential for that one setting: shown to the owner, never logged, never followed. */
  link: string | null
  /** The mailbox that asks to forward, partly hidden. */
  account_hint: string | null
  signature_id: string
  received_at: Timestamp
  expires_at: Timestamp
  dismissed_at: Timestamp | null
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used'

/** Sign in with a code (issue 40): one asking browser's code, confirmed by a signed-in wallet, redeemed once. */
export interface DeviceCodeTable {
  /** hex sha256 of the device secret the asking browser holds in a cookie; the secret itself is never stored. */
  secret_hash: string
  /** The short code, without its dash. */
  user_code: string
  status: DeviceCodeStatus
  /** The wallet that confirmed or denied it. */
  user_id: number | null
  requester_user_agent: string | null
  requester_address: string | null
  redirect_to: string
  created_at: Timestamp
  expires_at: Timestamp
  decided_at: Timestamp | null
  used_at: Timestamp | null
}

export interface Database {
  users: UserTable
  auth_challenges: AuthChallengeTable
  sessions: SessionTable
  receipts: ReceiptTable
  receipt_analyses: ReceiptAnalysisTable
  transactions: TransactionTable
  action_slots: ActionSlotTable
  transportation_services: TransportationServiceTable
  stores: StoreTable
  store_submissions: StoreSubmissionTable
  referrals: ReferralTable
  payouts: PayoutTable
  chain_checks: ChainCheckTable
  feedback: FeedbackTable
  audit_log: AuditLogTable
  rate_limits: RateLimitTable
  debug_logs: DebugLogTable
  analysis_jobs: AnalysisJobTable
  ereceipt_claims: EReceiptClaimTable
  ereceipt_mailboxes: EReceiptMailboxTable
  inbound_addresses: InboundAddressTable
  inbound_deliveries: InboundDeliveryTable
  forwarded_outcomes: ForwardedOutcomeTable
  device_codes: DeviceCodeTable
  forwarding_confirmations: ForwardingConfirmationTable
}

export type UserRow = Selectable<UserTable>
export type NewUser = Insertable<UserTable>
export type UserUpdate = Updateable<UserTable>
export type TransactionRow = Selectable<TransactionTable>
export type NewTransaction = Insertable<TransactionTable>
export type ReceiptRow = Selectable<ReceiptTable>
export type StoreRow = Selectable<StoreTable>
export type StoreSubmissionRow = Selectable<StoreSubmissionTable>
export type PayoutRow = Selectable<PayoutTable>
export type DeviceCodeRow = Selectable<DeviceCodeTable>
