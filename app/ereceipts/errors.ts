/** Why an e-mail is not taken as an e-receipt, with the message the user sees (issue 21). */
import { Refusal } from '~/utils/refusal'

export type EReceiptErrorCode =
  | 'too_large'
  | 'headers_too_large'
  | 'malformed'
  | 'too_many_parts'
  | 'inline_forward'
  | 'unknown_sender'
  | 'duplicate_header'
  | 'unsigned'
  | 'bad_signature'
  | 'weak_key'
  | 'partial_body'
  | 'from_not_signed'
  | 'not_aligned'
  | 'dns_unavailable'
  | 'mailbox_taken'
  | 'not_a_receipt'
  | 'food_order'
  | 'trip_summary'
  | 'not_a_payment'
  | 'fee_only'
  | 'pass_purchase'
  | 'too_many_signatures'
  | 'timed_out'
  | 'forged_confirmation'
  | 'confirmation_not_yours'

const MESSAGES: Record<EReceiptErrorCode, string> = {
  too_large: 'This e-mail is too large. E-receipts must be under 5 MB.',
  headers_too_large: 'This e-mail could not be read: its header section is too large.',
  malformed: 'This file could not be read as an e-mail. Save the receipt e-mail as an .eml file and try again.',
  too_many_parts: 'This e-mail has too many attachments to be a receipt.',
  inline_forward:
    'This receipt was forwarded inline, which removes the signature that proves it. Forward it as an attachment instead ("Forward as attachment" in Gmail and Outlook), or save the original e-mail as an .eml file and upload it.',
  unknown_sender:
    'We only accept e-receipts sent directly by the transport services we know. This e-mail does not come from one of them.',
  duplicate_header: 'This e-mail repeats a header that must appear once, so its signature cannot be trusted.',
  unsigned: 'This e-mail carries no signature from the service that sent it, so we cannot verify it.',
  bad_signature: "This e-mail's signature does not verify: it was changed after it was sent, or it was not sent by the service.",
  weak_key: 'This e-mail is signed with a key too short to trust.',
  partial_body: "This e-mail's signature covers only part of its text, so the rest could have been added later.",
  from_not_signed: "This e-mail's signature does not cover its sender, so we cannot verify who sent it.",
  not_aligned: "This e-mail's sender address does not match the domain that signed it.",
  dns_unavailable: "We could not check this e-mail's signature right now. Please try again in a minute.",
  mailbox_taken:
    'Receipts sent to this mailbox are already linked to another wallet. Contact support if you want them moved to this one.',
  not_a_receipt: 'This e-mail does not look like a trip receipt.',
  food_order:
    'This e-mail is a food or delivery order, not a trip. Only rides, transit, e-scooter and bike trips and electric car rentals earn B3TR.',
  trip_summary: 'This e-mail sums up several trips. Send the receipt of each trip instead: each one earns on its own.',
  not_a_payment:
    'This e-mail says it is not a payment receipt (a trip or charge summary). The service sends the receipt once the payment is processed: send that one instead.',
  fee_only:
    'This e-mail is a fee notice (a cancelled trip, a no-show or a fine), not a completed trip, so it does not earn B3TR.',
  pass_purchase:
    'This e-mail is for a pass, subscription or membership, not a trip. Send the receipts of the rides you take with it instead.',
  too_many_signatures: 'This e-mail carries more signatures than any real receipt, so we do not check it.',
  timed_out: "We could not check this e-mail's signature in time. Please try again in a minute.",
  forged_confirmation:
    "This message claims to be a mail provider's forwarding confirmation, but the provider's signature is missing or does not verify, so it is not shown.",
  confirmation_not_yours: 'This forwarding confirmation was sent for another ReCircle address, so it is not shown here.',
}

/** 400 for what the user sent, 422 for a signed mail that is no trip receipt, 409 for a mailbox bound elsewhere, 503 (retry) when DNS did not answer in time. */
const STATUS: Partial<Record<EReceiptErrorCode, 400 | 409 | 413 | 422 | 503>> = {
  too_large: 413,
  dns_unavailable: 503,
  mailbox_taken: 409,
  not_a_receipt: 422,
  food_order: 422,
  trip_summary: 422,
  not_a_payment: 422,
  fee_only: 422,
  pass_purchase: 422,
  timed_out: 503,
}

/** An e-mail that is not taken as an e-receipt; a 503 (DNS, time limit) may be retried in 30 s. */
export class EReceiptError extends Refusal<EReceiptErrorCode> {
  constructor(code: EReceiptErrorCode, details: Record<string, unknown> = {}) {
    const status = STATUS[code] ?? 400
    super(code, status, MESSAGES[code], { details, retryAfter: status === 503 ? 30 : undefined, echo: ['message', 'code'], title: 'E-receipt not accepted' })
  }
}

export const MAILBOX_TAKEN_MESSAGE = MESSAGES.mailbox_taken
