import { z } from 'zod'
import { TRANSPORT_CATEGORIES } from '~/analysis/categories'

/** The receipt form (spec 1 §5), shared by the scan page, the JSON API and the server's re-check. */
export const receiptFormSchema = z.object({
  storeId: z.coerce
    .string({ required_error: 'Please select a store' })
    .trim()
    .min(1, 'Please select a store'),
  category: z.enum(TRANSPORT_CATEGORIES, {
    errorMap: () => ({ message: 'Please select a purchase category' }),
  }),
  // A non-numeric value becomes 0 (spec 1 §5), which then fails the minimum.
  amount: z.preprocess(
    (v) => {
      const n = typeof v === 'number' ? v : Number(String(v ?? '').trim())
      return Number.isFinite(n) ? n : 0
    },
    z.number().min(0.01, 'Amount must be greater than 0').max(100_000, 'Amount looks too large'),
  ),
  purchaseDate: z
    .string({ required_error: 'Please select a date' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please select a date'),
})

export type ReceiptFormValues = z.infer<typeof receiptFormSchema>

export function amountToCents(amount: number) {
  return Math.round(amount * 100)
}
