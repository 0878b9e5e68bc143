import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, TextareaField } from '~/components/forms'
import { Icon } from '~/components/icons'
import { showToast } from '~/components/toaster'
import { emailInviteSchema, inviteSchema, smsInviteSchema } from '~/referrals/invite'
import { wholeB3trText } from '~/rewards/money'
import { COPIED_MS, REFERRAL_REWARD_B3TR, inviteLink, mailtoHref, smsHref, socialShareLinks } from '~/referrals/referrals'
import { getReferralStats } from '~/referrals/referrals.server'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Invite Friends · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const url = new URL(request.url)
  const stats = await getReferralStats(getDb(), user.id)
  const tab = url.searchParams.get('tab') === 'email' ? 'email' : 'sms'
  // ?copy=1 is Copy without JavaScript: the page shows the link ready to select and copy by hand.
  return json({ code: user.referralCode, link: inviteLink(url.origin, user.referralCode), stats, tab, copy: url.searchParams.get('copy') === '1' })
}

/** Direct invitations open the phone's messaging or mail app (decision 040): nothing is sent by us. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const submission = parseWithZod(await readFormData(request), { schema: inviteSchema })
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 })
  const link = inviteLink(new URL(request.url).origin, user.referralCode)
  const value = submission.value
  return redirect(value.intent === 'sms' ? smsHref(value.phone, link) : mailtoHref(value.email, link, value.message))
}

/**
 * With JavaScript it writes to the clipboard. Without, it is a GET to ?copy=1, and the page then
 * shows the link to select and copy by hand (a page cannot copy without JavaScript).
 */
function CopyButton({ text, tab }: { text: string; tab: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <Form method="get" replace preventScrollReset style={{ display: 'flex' }}>
      {tab === 'email' ? <input type="hidden" name="tab" value="email" /> : null}
      <button
        type="submit"
        name="copy"
        value="1"
        className="btn secondary"
        onClick={async (event) => {
          event.preventDefault()
          try {
            await navigator.clipboard.writeText(text)
            setCopied(true)
          } catch {
            showToast({ title: "Couldn't copy", description: 'Select the link and copy it yourself.', variant: 'destructive' })
          }
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </Form>
  )
}

function useInviteForm(id: string, schema: typeof smsInviteSchema | typeof emailInviteSchema) {
  const lastResult = useActionData<typeof action>()
  return useForm({
    id,
    lastResult: lastResult?.initialValue?.intent === id ? lastResult : undefined,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => {
      const result = parseWithZod(formData, { schema })
      if (result.status === 'error') showToast({ title: 'Information Required', description: Object.values(result.error ?? {})[0]?.[0] ?? '', variant: 'destructive' })
      return result
    },
    shouldValidate: 'onSubmit',
  })
}

export default function InviteFriend() {
  const { code, link, stats, tab, copy } = useLoaderData<typeof loader>()
  const [smsForm, smsFields] = useInviteForm('sms', smsInviteSchema)
  const [emailForm, emailFields] = useInviteForm('email', emailInviteSchema)
  const share = socialShareLinks(link)
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <section className="card hero">
        <h1 style={{ color: '#fff' }}>Invite Friends</h1>
        <p style={{ margin: 0 }}>
          Earn <strong>{wholeB3trText(REFERRAL_REWARD_B3TR)}</strong> per referral when your friend joins and scans a first receipt.
        </p>
      </section>

      <section className="card stack" aria-labelledby="link-title">
        <h2 id="link-title" style={{ margin: 0 }}>
          Your invite link
        </h2>
        <div className="invite-link">
          <label htmlFor="invite-link" className="sr-only">
            Invite link
          </label>
          <input id="invite-link" className="input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={link} tab={tab} />
        </div>
        {copy ? (
          <div className="alert info" role="status" data-testid="copy-by-hand">
            <strong>Copy the link yourself.</strong> Copying needs JavaScript. Tap the link below once to select all of it, then
            copy it (long-press and Copy, or Ctrl+C):
            <p style={{ margin: '0.5rem 0 0', userSelect: 'all', WebkitUserSelect: 'all', overflowWrap: 'anywhere', fontWeight: 700 }}>{link}</p>
          </div>
        ) : null}
        <div className="small muted">
          Referral code: <strong data-testid="referral-code">{code}</strong>
        </div>
      </section>

      <section className="card stack" aria-labelledby="direct-title">
        <h2 id="direct-title" style={{ margin: 0 }}>
          Invite directly
        </h2>
        <nav className="tabs" style={{ gridTemplateColumns: '1fr 1fr' }} aria-label="Invitation method">
          <Link to="?tab=sms" replace preventScrollReset aria-current={tab === 'sms' ? 'page' : undefined}>
            SMS
          </Link>
          <Link to="?tab=email" replace preventScrollReset aria-current={tab === 'email' ? 'page' : undefined}>
            Email
          </Link>
        </nav>
        {tab === 'sms' ? (
          <Form method="post" className="stack" {...getFormProps(smsForm)}>
            <input type="hidden" name="intent" value="sms" />
            <Field label="Phone number" inputProps={{ ...getInputProps(smsFields.phone, { type: 'tel' }), autoComplete: 'tel' }} errors={smsFields.phone.errors} />
            <button type="submit" className="btn">
              <Icon name="message" /> Send SMS Invitation
            </button>
          </Form>
        ) : (
          <Form method="post" className="stack" {...getFormProps(emailForm)}>
            <input type="hidden" name="intent" value="email" />
            <Field label="Email address" inputProps={{ ...getInputProps(emailFields.email, { type: 'email' }), autoComplete: 'email' }} errors={emailFields.email.errors} />
            <TextareaField label="Message (optional)" textareaProps={{ ...getTextareaProps(emailFields.message), rows: 3 }} errors={emailFields.message.errors} />
            <button type="submit" className="btn">
              <Icon name="message" /> Send Email Invitation
            </button>
          </Form>
        )}
        <p className="small muted" style={{ margin: 0 }}>
          Opens your messaging or mail app with the invitation filled in.
        </p>
      </section>

      <section className="card stack" aria-labelledby="share-title">
        <h2 id="share-title" style={{ margin: 0 }}>
          Share
        </h2>
        <div className="share-grid">
          <a href={share.x} target="_blank" rel="noreferrer">
            <Icon name="xLogo" /> X
          </a>
          <a href={share.facebook} target="_blank" rel="noreferrer">
            <Icon name="facebook" /> Facebook
          </a>
          <a
            href={share.instagram}
            target="_blank"
            rel="noreferrer"
            onClick={() => {
              void navigator.clipboard?.writeText(link).then(
                () => showToast({ title: 'Link copied', description: 'Paste it in your Instagram story or message.' }),
                () => undefined,
              )
            }}
          >
            <Icon name="instagram" /> Instagram
          </a>
          <a href={share.whatsapp} target="_blank" rel="noreferrer">
            <Icon name="whatsapp" /> WhatsApp
          </a>
        </div>
      </section>

      <section className="card row between">
        <div>
          <div style={{ fontWeight: 700 }}>Total referrals</div>
          <div className="small muted">{stats.rewarded} rewarded so far</div>
        </div>
        <span className="counter" data-testid="referral-count">
          {stats.count}
        </span>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
