import { describe, expect, it } from 'vitest'
import { loader as adminFeedbackLoader } from '../app/routes/admin.feedback'
import { action as feedbackAction } from '../app/routes/feedback'
import { bodyOf, formRequest, getRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

const ctx = { context: {}, params: {} }

describe('/feedback', () => {
  it('stores feedback (also without a session) and lists it for admins only', async () => {
    const text = `The scan page is great ${Date.now()}`
    const res = await feedbackAction({ ...ctx, request: formRequest('/feedback', { type: 'praise', text, email: 'rider@example.com' }) })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
    const admin = await signInNewUser(ADMIN_WALLET)
    const list = await bodyOf(await adminFeedbackLoader({ ...ctx, request: getRequest('/admin/feedback', admin.cookie) }))
    expect(list.feedback).toContainEqual(expect.objectContaining({ type: 'praise', text, email: 'rider@example.com' }))
    const user = await signInNewUser()
    const forbidden = await adminFeedbackLoader({ ...ctx, request: getRequest('/admin/feedback', user.cookie) }).catch((r) => r)
    expect(forbidden.status).toBe(403)
  })

  it.each([
    [{ type: 'praise', text: '   ' }, 'text', 'Please provide some feedback before submitting.'],
    [{ type: 'rant', text: 'hi' }, 'type', 'Please choose a feedback type'],
    [{ type: 'issue', text: 'hi', email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
  ])('refuses %j with a field error', async (fields, field, message) => {
    const res = await feedbackAction({ ...ctx, request: formRequest('/feedback', fields as Record<string, string>) })
    expect(res.status).toBe(400)
    const body = await bodyOf(res)
    expect(body.error[field]).toEqual([message])
  })
})
