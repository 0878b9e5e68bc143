import { z } from 'zod'

export const FEEDBACK_TYPES = ['suggestion', 'issue', 'praise', 'other'] as const

export const feedbackSchema = z.object({
  type: z.enum(FEEDBACK_TYPES, { errorMap: () => ({ message: 'Please choose a feedback type' }) }),
  text: z
    .string({ required_error: 'Please provide some feedback before submitting.' })
    .trim()
    .min(1, 'Please provide some feedback before submitting.')
    .max(5000, 'Feedback can be at most 5000 characters'),
  email: z.string().trim().email('Please enter a valid email address').max(254).optional(),
})
