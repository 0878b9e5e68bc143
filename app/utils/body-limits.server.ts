/**
 * Request body limits, enforced by the Express layer (scripts/server.ts) before Remix reads a byte:
 * two unauthenticated 600 MB posts once took the server to 1.7 GB (issue 10).
 */

const KB = 1024
const MB = 1024 * KB

/** Forms and JSON calls: far more than any real form or sign-in certificate needs. */
export const FORM_BODY_LIMIT_BYTES = 64 * KB

/**
 * Receipt photo uploads: a 5 MB photo (MAX_IMAGE_BYTES) is ~6.7 MB as a base64 JSON data URL;
 * multipart adds less than that.
 */
export const RECEIPT_BODY_LIMIT_BYTES = 7.5 * MB

export const BODY_TOO_LARGE_MESSAGE = 'Request body too large'
export const UPLOAD_TOO_LARGE_MESSAGE = 'This upload is too large. Photos must be under 5 MB.'

/** The paths that take a receipt photo or e-mail: the scan page's form, the receipt API, the inbound webhook. */
const RECEIPT_UPLOAD_PATH = /^\/(?:api\/receipts(?:\/validate)?|api\/inbound-email|scan(?:\/receipts\/[^/]+)?)\/?$/i

export function isReceiptUpload(pathname: string): boolean {
  return RECEIPT_UPLOAD_PATH.test(pathname)
}

export function bodyLimitFor(pathname: string): number {
  return isReceiptUpload(pathname) ? RECEIPT_BODY_LIMIT_BYTES : FORM_BODY_LIMIT_BYTES
}

export function bodyTooLargeMessage(pathname: string): string {
  return isReceiptUpload(pathname) ? UPLOAD_TOO_LARGE_MESSAGE : BODY_TOO_LARGE_MESSAGE
}
