import { z } from 'zod'
import { STORE_TYPES } from '~/stores/stores'
import { rowIdSchema } from '~/utils/ids'

/** The in-app store form (a better-than-spec alternative to the external form). */
export const storeSubmissionSchema = z.object({
  name: z
    .string({ required_error: 'Please enter the store name' })
    .trim()
    .min(2, 'Please enter the store name')
    .max(120, 'The name can be at most 120 characters'),
  address: z
    .string({ required_error: 'Please enter the street address' })
    .trim()
    .min(3, 'Please enter the street address')
    .max(200, 'The address can be at most 200 characters'),
  city: z.string({ required_error: 'Please enter the city' }).trim().min(2, 'Please enter the city').max(80, 'The city can be at most 80 characters'),
  state: z
    .string({ required_error: 'Please enter the state' })
    .trim()
    .min(2, 'Please enter the state')
    .max(40, 'The state can be at most 40 characters')
    .transform((s) => (s.length === 2 ? s.toUpperCase() : s)),
  storeType: z.enum(STORE_TYPES, { errorMap: () => ({ message: 'Please choose a store type' }) }),
})

export type StoreSubmissionInput = z.infer<typeof storeSubmissionSchema>

export const FORM_SUBMISSION_ISSUE_TITLE = 'Form Submission Issue'
export const FORM_SUBMISSION_ISSUE_MESSAGE = "We couldn't record your submission for rewards, but you can still submit the form"

/** An admin's decision on one submission (the pending-submissions page). */
export const decisionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('approve'), submissionId: rowIdSchema }),
  z.object({
    intent: z.literal('reject'),
    submissionId: rowIdSchema,
    reason: z
      .string({ required_error: 'Please give a reason for the rejection' })
      .trim()
      .min(3, 'Please give a reason for the rejection')
      .max(500, 'The reason can be at most 500 characters'),
  }),
])
