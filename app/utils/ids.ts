import { z } from 'zod'

/**
 * Row ids are 32-bit (`serial` on PostgreSQL). An id past that is no row of ours: PostgreSQL would
 * refuse the query (a 500) where SQLite finds nothing, so both engines answer "not found" here.
 */
export const MAX_ROW_ID = 2_147_483_647

/** A row id from a URL segment or query value: digits without a leading zero, within range; else null. */
export function parseRowId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null
  const id = Number(value)
  return id <= MAX_ROW_ID ? id : null
}

/** A row id in a form or JSON body. */
export const rowIdSchema = z.coerce.number().int().positive().max(MAX_ROW_ID)
