/**
 * A receipt forwarded inline by the three phone mail apps (issue 39), as each lays the forward out:
 * the original's HTML or text quoted under the app's own header block, in a new message the rider's
 * mailbox sends (and may sign for its own domain). The service's signature is gone.
 */
import PostalMime from 'postal-mime'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'

export type PhoneApp = 'gmail' | 'iphone' | 'outlook'
export const PHONE_APPS: PhoneApp[] = ['gmail', 'iphone', 'outlook']

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The body of an HTML document (what mail apps quote). */
const bodyOf = (html: string) => /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html

type Original = { from: string; fromName: string; to: string; subject: string; date: Date; html: string; text: string }

async function original(raw: Buffer): Promise<Original> {
  const email = await PostalMime.parse(raw)
  const html = email.html ?? `<pre>${esc(email.text ?? '')}</pre>`
  return {
    from: email.from?.address ?? '',
    fromName: email.from?.name ?? '',
    to: email.to?.[0]?.address ?? '',
    subject: email.subject ?? '',
    date: email.date ? new Date(email.date) : new Date(),
    html,
    text: email.text ?? html.replace(/<[^>]+>/g, ' ').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n'),
  }
}

const usLong = (d: Date) =>
  d.toLocaleString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZone: 'UTC' })

function layout(app: PhoneApp, o: Original): { text: string; html: string } {
  const sender = `${o.fromName} <${o.from}>`
  if (app === 'gmail') {
    const date = o.date.toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).replace(/, (\d+:\d+)/, ' at $1')
    return {
      text: `\n\n---------- Forwarded message ---------\nFrom: ${sender}\nDate: ${date}\nSubject: ${o.subject}\nTo: <${o.to}>\n\n\n${o.text}\n`,
      html:
        `<div dir="ltr"><br><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>` +
        `From: <strong class="gmail_sendername" dir="auto">${esc(o.fromName)}</strong> <span dir="auto">&lt;<a href="mailto:${o.from}">${o.from}</a>&gt;</span><br>` +
        `Date: ${esc(date)}<br>Subject: ${esc(o.subject)}<br>To: &lt;<a href="mailto:${o.to}">${o.to}</a>&gt;<br></div><br><br>${bodyOf(o.html)}</div></div>`,
    }
  }
  if (app === 'iphone') {
    const date = `${o.date.toLocaleString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })} at ${o.date.toLocaleTimeString('en-US', { timeZone: 'UTC' })} GMT`
    return {
      text: `\n\nSent from my iPhone\n\nBegin forwarded message:\n\nFrom: ${sender}\nDate: ${date}\nTo: ${o.to}\nSubject: ${o.subject}\n\n${o.text}\n`,
      html:
        `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto"><div dir="ltr"></div><div dir="ltr">Sent from my iPhone</div>` +
        `<div dir="ltr"><br><blockquote type="cite">Begin forwarded message:<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">` +
        `<b>From:</b> ${esc(sender)}<br><b>Date:</b> ${esc(date)}<br><b>To:</b> ${o.to}<br><b>Subject:</b> <b>${esc(o.subject)}</b><br><br></div></blockquote>` +
        `<blockquote type="cite"><div dir="ltr">${bodyOf(o.html)}</div></blockquote></body></html>`,
    }
  }
  const sent = usLong(o.date)
  return {
    text: `\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: ${sender}\nSent: ${sent}\nTo: ${o.to} <${o.to}>\nSubject: ${o.subject}\n\n${o.text}\n`,
    html:
      `<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body><div dir="ltr">Get <a href="https://aka.ms/o0ukef">Outlook for iOS</a></div>` +
      `<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000">` +
      `<b>From:</b> ${esc(sender)}<br><b>Sent:</b> ${esc(sent)}<br><b>To:</b> ${o.to} &lt;${o.to}&gt;<br><b>Subject:</b> ${esc(o.subject)}</font><div>&nbsp;</div></div>` +
      `${bodyOf(o.html)}</body></html>`,
  }
}

/** `raw` (a receipt e-mail) forwarded inline by `app`, as plain text only or as text and HTML. */
export async function forwardInlineFrom(app: PhoneApp, raw: Buffer, opts: { from: string; to: string; html: boolean }): Promise<Buffer> {
  const o = await original(raw)
  const { text, html } = layout(app, o)
  const composer = new MailComposer({
    from: opts.from,
    to: opts.to,
    subject: `${app === 'outlook' ? 'Fw' : 'Fwd'}: ${o.subject}`,
    text,
    ...(opts.html ? { html } : {}),
  })
  return composer.compile().build()
}
