import { z } from 'zod'

/** The direct-invitation forms (spec 2 §5): an empty field gets the spec's message. */
export const smsInviteSchema = z.object({
  intent: z.literal('sms'),
  phone: z
    .string({ required_error: 'Please enter a phone number' })
    .trim()
    .min(1, 'Please enter a phone number')
    .regex(/^\+?[\d\s().-]{5,20}$/, 'Please enter a valid phone number'),
})

export const emailInviteSchema = z.object({
  intent: z.literal('email'),
  email: z.string({ required_error: 'Please enter an email address' }).trim().min(1, 'Please enter an email address').email('Please enter a valid email address'),
  message: z.string().trim().max(500, 'The message can be at most 500 characters').optional(),
})

export const inviteSchema = z.discriminatedUnion('intent', [smsInviteSchema, emailInviteSchema])
