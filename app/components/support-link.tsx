import { SUPPORT_FORM_HREF, splitAtSupport } from '~/utils/support'
import { useRootData } from '~/utils/user'

/** A link to support: the mailbox when SUPPORT_EMAIL is set, else the feedback form (the root loader decides). */
export function SupportLink({ children }: { children: React.ReactNode }) {
  const href = useRootData()?.supportHref ?? SUPPORT_FORM_HREF
  // A plain anchor: mailto: is no route, and the form works the same without JavaScript.
  return <a href={href}>{children}</a>
}

/** A message as text, with its "contact support" as a link to support (issue 32). */
export function WithSupportLink({ text }: { text: string }) {
  const parts = splitAtSupport(text)
  if (!parts) return <>{text}</>
  return (
    <>
      {parts.before}
      <SupportLink>{parts.phrase}</SupportLink>
      {parts.after}
    </>
  )
}
