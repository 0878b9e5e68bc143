/**
 * Why a receipt is not taken, now or at all: one type for every step that refuses (the photo's
 * checks, the e-mail reader, a busy reader, the analysis step's early checks, the submission). It
 * carries what the user reads (`message`, and a `title` where a page shows one), the HTTP status
 * that says so, and when a retry can help (`retryAfter`, seconds). receipts/refusal.server.ts turns
 * it into a response.
 */
export type RefusalInit = {
  title?: string
  /** Seconds after which the same request may succeed (503 busy, DNS down): sent as Retry-After. */
  retryAfter?: number
  /** For logs and staff, never shown. */
  details?: Record<string, unknown>
  /** What the JSON answer carries besides `error`: each refusal answers as it always has. */
  echo?: ReadonlyArray<Echo>
}

type Echo = 'message' | 'code' | 'refusal'

export class ReceiptRefusal<Code extends string = string> extends Error {
  readonly title: string
  readonly retryAfter: number | undefined
  readonly details: Record<string, unknown>
  readonly echo: ReadonlyArray<Echo>

  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
    init: RefusalInit = {},
  ) {
    super(message)
    this.name = 'ReceiptRefusal'
    this.title = init.title ?? 'Receipt not accepted'
    this.retryAfter = init.retryAfter
    this.details = init.details ?? {}
    this.echo = init.echo ?? []
  }

  /** The JSON answer of an API route: `{ error }`, plus what `echo` names. */
  answer(): Record<string, unknown> {
    return {
      error: this.message,
      ...(this.echo.includes('message') ? { message: this.message } : {}),
      ...(this.echo.includes('code') ? { code: this.code } : {}),
      ...(this.echo.includes('refusal') ? { refusal: this.toJSON() } : {}),
    }
  }

  /** As a page or an analysis result carries it. */
  toJSON(): { code: Code; title: string; message: string; status: number; retryAfter?: number } {
    return { code: this.code, title: this.title, message: this.message, status: this.status, ...(this.retryAfter ? { retryAfter: this.retryAfter } : {}) }
  }
}
