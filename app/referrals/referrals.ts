// Invitation links and share targets (spec 2 §2, decision 040). Pure.

export const REFERRAL_REWARD_B3TR = 15
export const COPIED_MS = 3000
export const JOIN_REDIRECT_MS = 1500

const CODE_PATTERN = /^[A-Z0-9]{4,16}$/

/** Referral codes are upper-case letters and digits; anything else is not a code. */
export function normalizeReferralCode(raw: string | null | undefined): string | null {
  const code = (raw ?? '').trim().toUpperCase()
  return CODE_PATTERN.test(code) ? code : null
}

export function inviteLink(origin: string, code: string): string {
  return `${origin}/join?${new URLSearchParams({ ref: code })}`
}

export function inviteText(link: string): string {
  return `Join me on ReCircle and earn B3TR tokens for sustainable rides! ${link}`
}

export function smsHref(phone: string, link: string): string {
  // `?&body=` is understood by both iOS and Android messaging apps.
  return `sms:${encodeURIComponent(phone.replace(/[^\d+]/g, ''))}?&body=${encodeURIComponent(inviteText(link))}`
}

export function mailtoHref(email: string, link: string, message?: string): string {
  const body = [message?.trim(), inviteText(link)].filter(Boolean).join('\n\n')
  return `mailto:${encodeURIComponent(email.trim()).replace(/%40/g, '@')}?${new URLSearchParams({ subject: 'Join me on ReCircle', body }).toString().replace(/\+/g, '%20')}`
}

export function socialShareLinks(link: string) {
  const text = inviteText(link)
  return {
    x: `https://twitter.com/intent/tweet?${new URLSearchParams({ text })}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: link })}`,
    // Instagram has no web share URL: the page copies the link and opens Instagram.
    instagram: 'https://www.instagram.com/',
    whatsapp: `https://wa.me/?${new URLSearchParams({ text })}`,
  }
}
