/**
 * Why a request is not done, now or at all: one type for the whole app (issue 36). Every step of a
 * receipt's way in refuses with it (the photo's checks, the e-mail reader, a busy reader, the
 * limits, the early checks, the submission), and so do staff decisions, the inbound webhook's
 * signature, debug tools and store submissions. It carries what the user reads (`message`, and a
 * `title` where a page shows one), the HTTP status that says so, and when a retry can help
 * (`retryAfter`, seconds). utils/refusal.server.ts is the one place it becomes a response; a
 * function that returns its outcome instead of throwing returns the Refusal itself (`ok: false`), or
 * `refused(r)` where callers have always read `{ ok: false, status, error }`.
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

export class Refusal<Code extends string = string> extends Error {
  /** A Refusal is also a function's failed outcome: `if (!result.ok)`. */
  readonly ok = false as const
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
    this.name = 'Refusal'
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

/** A refused outcome as its callers (and the API) have always read it: `{ ok: false, status, error }`. */
export type Refused<Status extends number = number> = { ok: false; status: Status; error: string }

export function refused<Status extends number = number>(refusal: Refusal): Refused<Status> {
  return { ok: false, status: refusal.status as Status, error: refusal.message }
}
